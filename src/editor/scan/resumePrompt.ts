import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { formatBytes } from '../../core/text/bytes';
import type { Ctx } from '../context';
import type { ScanOptions, ScanSummary } from './scanController';

/**
 * At start-up, offers to finish an upload a reload or crash interrupted. Resolves with what
 * Resume Upload returned when the user chose it; `options` are the scan commands' knobs.
 */
export async function offerResume({ uploads: transfers, notifier, log, commands }: Pick<Ctx, 'uploads' | 'notifier' | 'log' | 'commands'>, options?: ScanOptions): Promise<ScanSummary | undefined> {
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
    log.warn(`Could not check for interrupted uploads: ${errorMessage(err)}`);
  }
  return undefined;
}
