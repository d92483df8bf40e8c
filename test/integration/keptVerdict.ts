// What zPushCheck.test.ts leaves for zPushCheck.reloaded.ts across the window's reload.
export const KEPT_VERDICT = 'a verdict before a push, kept across a reload';

/** `details`: the finding whose details page was open when the window reloaded. */
export interface KeptVerdict { folderUri: string; path: string; original: string; text: string; details: string }
