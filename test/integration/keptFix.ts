// What zKeptFix.test.ts leaves for zKeptFix.reloaded.ts across the window's reload.
export const KEPT_FIX = 'a fix saved before a reload';

export interface KeptFix { folderUri: string; issueId: string; path: string; original: string }
