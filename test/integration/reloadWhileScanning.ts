// What zReload.test.ts leaves for zReload.reloaded.ts across the window's reload.
export const RELOAD_WHILE_SCANNING = 'a reload while the service is scanning';

export interface ReloadWhileScanning { scanId: string; folderUri: string }
