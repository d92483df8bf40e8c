// What zPushCheck.test.ts leaves for zPushCheck.reloaded.ts across the window's reload.
export const KEPT_VERDICT = 'a verdict before a push, kept across a reload';

export interface KeptVerdict { folderUri: string; path: string; original: string; text: string }
