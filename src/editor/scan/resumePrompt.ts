import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { formatBytes } from '../../core/text/bytes';
import type { Ctx } from '../context';
import type { ScanOptions, ScanSummary } from './scanController';
import { displayLanguage, l10n } from '../../core/text/l10n';

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
      return l10n.t('{0} ({1}, started {2})', folder?.name ?? store.folderUri, formatBytes(transfer.size), new Date(transfer.createdAt).toLocaleString(displayLanguage()));
    });
    const resume = l10n.t('Resume Upload');
    const discard = l10n.t('Discard');
    const choice = await notifier.info(names.length > 1 ? l10n.t('Uploads were interrupted: {0}. Resume them?', names.join(', ')) : l10n.t('An upload was interrupted: {0}. Resume it?', names[0]), resume, discard);
    if (choice === resume) return await commands.execute('codeScanner.resumeUpload', options);
    if (choice === discard) for (const { store } of pending) await transfers.discard(store);
  } catch (err) {
    log.warn(`Could not check for interrupted uploads: ${errorMessage(err)}`);
  }
  return undefined;
}
