import * as vscode from 'vscode';
import { formatBytes } from '../core/workspace/selectFiles';
import type { Notifier } from './notifier';
import type { ScanOptions, ScanSummary } from './scanController';
import type { Commands } from './commands/manager';
import type { UploadStorage } from './uploadStorage';

/**
 * At start-up, offers to finish an upload a reload or crash interrupted. Resolves with what
 * Resume Upload returned when the user chose it; `options` are the scan commands' knobs.
 */
export async function offerResume(transfers: UploadStorage, notifier: Notifier, log: vscode.LogOutputChannel, commands: Commands, options?: ScanOptions): Promise<ScanSummary | undefined> {
  try {
    await transfers.sweep();
    const pending = await transfers.pending();
    if (!pending.length) return undefined;
    const names = pending.map(({ transfer, store }) => {
      const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(store.folderUri));
      return `${folder?.name ?? store.folderUri} (${formatBytes(transfer.size)}, started ${new Date(transfer.createdAt).toLocaleString()})`;
    });
    const choice = await notifier.info(names.length > 1 ? `Uploads were interrupted: ${names.join(', ')}. Resume them?` : `An upload was interrupted: ${names[0]}. Resume it?`, 'Resume Upload', 'Discard');
    if (choice === 'Resume Upload') return await commands.execute('codeScanner.resumeUpload', options);
    if (choice === 'Discard') for (const { store } of pending) await transfers.discard(store);
  } catch (err) {
    log.warn(`Could not check for interrupted uploads: ${(err as Error).message}`);
  }
  return undefined;
}
