// The results commands: Refresh Results (one look at each scan still on the service, then
// every shown scan read again), Ignore Scan (stop expecting a scan still on the service) and
// Clear Results. None polls, and what cannot be read leaves the findings as they were.
import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/api';
import { errorMessage } from '../../core/errors';
import { clockTime, type PendingScan } from '../../core/results';
import { ScanFailedError } from '../../core/scan/awaitScan';
import { fetchFindings, waitForScan, withLists, type PipelineContext } from '../../core/scan/pipeline';
import type { Session } from '../account/session';
import type { Commands } from '../commands/manager';
import type { Notifier } from '../notifier';
import type { ResultsStore } from '../results/resultsStore';
import type { UploadStorage } from './uploadStorage';
import { l10n, plural } from '../../core/text/l10n';

/** What the results commands need to know of the scans running now (ScanController). */
export interface ScanActivity {
  /** A scan command is running. */
  readonly busy: boolean;
  /** The scan is being waited for by a run now. */
  isWatching(scanId: string): boolean;
  /** Runs `fn` while it waits for the scan, so no other wait starts for it. */
  watch<T>(scanId: string, fn: () => Promise<T>): Promise<T>;
  /** Cancels the running scan and waits until it has ended. */
  stopAndSettle(): Promise<void>;
}

export class ResultsCommands {
  private readonly store: ResultsStore;
  private readonly session: Session;
  private readonly uploads: UploadStorage;
  private readonly notifier: Notifier;
  private readonly commands: Commands;

  constructor(deps: { store: ResultsStore; session: Session; uploads: UploadStorage; notifier: Notifier; commands: Commands }, private readonly scans: ScanActivity) {
    ({ store: this.store, session: this.session, uploads: this.uploads, notifier: this.notifier, commands: this.commands } = deps);
  }

  /**
   * Asks the service once about each scan still on it (a completed one's findings are read
   * and shown), then reads every shown scan again. No polling: the user asked for the
   * current state. What cannot be read leaves the findings as they were.
   */
  async refresh(): Promise<boolean> {
    const pending = this.store.pendingScans().filter((p) => !this.scans.isWatching(p.scan.scanId));
    const folders = [...new Set([...this.store.foldersWithResults(), ...pending.map((p) => p.folderUri)])];
    if (!folders.length) {
      void this.notifier.info(l10n.t('No scan results yet.'), { title: l10n.t('Scan Workspace'), run: () => this.commands.execute('codeScanner.scanWorkspace') });
      return false;
    }
    const client = await this.session.getClient({ ask: true });
    if (!client) return false;
    const archivedFiles = this.uploads.archivedFiles();
    const notes: string[] = [];
    try {
      await vscode.window.withProgress({ location: { viewId: 'codeScanner.issues' }, title: l10n.t('Refreshing results') }, async () => {
        for (const folderUri of folders) {
          for (const p of pending.filter((x) => x.folderUri === folderUri)) {
            const note = await this.checkPending(client, folderUri, p.scan);
            if (note) notes.push(note);
          }
          const perScan = [];
          for (const scan of this.store.scansOf(folderUri)) {
            const archived = await archivedFiles.load(scan.archiveSha256);
            const found = await fetchFindings({ client, log: (l) => this.session.log.warn(l) }, scan.scanId);
            perScan.push({ scan: withLists(scan, found), issues: found.issues, archived, unreadable: found.unreadable });
          }
          if (perScan.length) await this.store.replaceFolder(folderUri, perScan);
        }
      });
      if (notes.length) void this.notifier.info(notes.join(' '));
      return true;
    } catch (err) {
      await this.session.reportError(err);
      return false;
    }
  }

  /** One look at a scan still on the service: its findings when it is done; what is known otherwise (a sentence), else nothing. */
  private async checkPending(client: ServiceClient, folderUri: string, scan: PendingScan): Promise<string | undefined> {
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(folderUri));
    const name = folder?.name ?? folderUri;
    const when = clockTime(scan.scannedAt, new Date());
    const uploads = await this.uploads.uploadsOf(this.uploads.forFolder(folderUri));
    const ctx: PipelineContext = {
      client, uploads, signal: new AbortController().signal, onProgress: () => undefined,
      log: (line) => this.session.log.info(`${name}: ${line}`),
      warn: (line) => this.session.log.warn(`${name}: ${line}`),
      onScan: (e) => this.store.apply(folderUri, e, this.session.account),
    };
    try {
      const r = await this.scans.watch(scan.scanId, () => waitForScan(scan, ctx, { wait: false }));
      return r.kind === 'running' ? l10n.t('The scan of {0} from {1} is still running on the service ({2}); refresh again later.', name, when, r.status) : undefined;
    } catch (err) {
      if (err instanceof ScanFailedError) return l10n.t('The scan of {0} from {1} failed on the service{2}.', name, when, err.reason ? `: ${err.reason}` : '');
      return l10n.t('The scan of {0} from {1}: {2}', name, when, errorMessage(err));
    }
  }

  /**
   * Stops expecting a scan still on the service (its findings will not be read): that scan
   * only, every earlier finding stays. Asks which when there are several.
   */
  async ignoreScan(scanId?: unknown): Promise<boolean> {
    const pending = this.store.pendingScans();
    let id = typeof scanId === 'string' ? scanId : undefined;
    if (!id) {
      if (!pending.length) {
        void this.notifier.info(l10n.t('No scan is waiting on the service.'));
        return false;
      }
      const now = new Date();
      const picked = pending.length === 1 ? { id: pending[0].scan.scanId } : await vscode.window.showQuickPick(
        pending.map((p) => ({
          label: l10n.t('{0}: the scan of {1}', vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(p.folderUri))?.name ?? p.folderUri, clockTime(p.scan.scannedAt, now)),
          description: p.scan.partialFiles ? plural(p.scan.partialFiles.length, l10n.t('{0} file'), l10n.t('{0} files')) : l10n.t('whole folder'),
          detail: p.scan.waiting ? l10n.t('waited for now') : l10n.t('not waited for'),
          id: p.scan.scanId,
        })),
        { title: l10n.t('Ignore a scan still on the service'), placeHolder: l10n.t('Its findings will not be read; the findings shown stay') },
      );
      id = picked?.id;
    }
    if (!id) return false;
    if (this.scans.isWatching(id)) {
      // Waited for now: the wait ends first (it records the stop), then the scan is forgotten.
      await this.scans.stopAndSettle();
    }
    return this.store.forgetScan(id);
  }

  /** Forgets every stored finding of this workspace (the scans stay on the service); asks first unless `confirmed`. */
  async clearResults(confirmed = false): Promise<boolean> {
    if (this.scans.busy) return false;
    if (!confirmed) {
      const sure = await this.notifier.confirm(
        l10n.t('Clear the scan results of this workspace?'),
        l10n.t('Findings, fixes and local dismissals are forgotten here. The scans stay on the service; scan again to see findings.'),
        l10n.t('Clear Results'),
      );
      if (!sure) return false;
    }
    this.store.clear();
    void this.pruneArchivedFiles();
    return true;
  }

  /** Deletes the lists of archives no finding comes from any more. */
  pruneArchivedFiles(): Promise<void> {
    return pruneArchivedFiles(this.uploads, this.store, this.session);
  }
}

/** Deletes the file lists of archives no stored finding comes from (after a scan, after Clear Results). */
export async function pruneArchivedFiles(uploads: UploadStorage, store: ResultsStore, session: Session): Promise<void> {
  try {
    await uploads.pruneArchivedFiles(store.archiveDigests());
  } catch (err) {
    session.log.warn(`Could not tidy the archived file lists: ${errorMessage(err)}`);
  }
}
