// Telling the user how a scan ended: one message for the folders that finished (issues,
// notes, files left out, with Show Skipped Files), and for those that did not, each way
// they ended once, with the action that helps. The words are the core's (core/scan/endWords.ts);
// a scan on save tells the log only. The findings shown stay in every case.
import * as vscode from 'vscode';
import { absentListLine, backgroundEnd, continuingWords, failureOf, failureSentence, failureSummaryError, finishedWords, savedScanLine, shownSentence, type EndSummary, type FolderOutcome } from '../../core/scan/endWords';
import { errorMessage } from '../../core/errors';
import type { ScanEvent } from '../../core/scan/events';
import { skipReasonLabel, type SkippedFile } from '../../core/workspace/selectFiles';
import type { Session } from '../account/session';
import type { Commands } from '../commands/manager';
import type { Notifier } from '../notifier';
import type { ResultsStore } from '../results/resultsStore';
import type { FolderFailure, Run } from './scanRun';
import { l10n } from '../../core/text/l10n';

export class ScanEnd {
  /** Lists a service was found not to have, said once a session (`address kind`). */
  private readonly absentSaid = new Set<string>();

  constructor(private readonly deps: { store: ResultsStore; notifier: Notifier; commands: Commands; session: Session }) {}

  /**
   * A list the service does not have is said once a session in the log (decisions.md),
   * never as "0 findings"; Check Connection says it too.
   */
  sayAbsentLists(e: ScanEvent, baseUrl: string): void {
    if (e.kind !== 'completed') return;
    for (const kind of e.findings.scan.absentLists ?? []) {
      if (this.absentSaid.has(`${baseUrl} ${kind}`)) continue;
      this.absentSaid.add(`${baseUrl} ${kind}`);
      this.deps.session.log.info(absentListLine(kind, baseUrl));
    }
  }

  /** Which findings are shown for a folder now, in a sentence. */
  shownText(folderName: string | undefined): string {
    const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => f.name === folderName);
    const scans = folder ? this.deps.store.scansOf(folder.uri.toString()) : [];
    return shownSentence(scans[scans.length - 1]?.scannedAt, new Date());
  }

  /**
   * What is said when folders of a run did not finish: every folder whose scan goes on on
   * the service in one message (Ignore This Scan forgets them all), one "cancelled", and
   * each other failure with its folder.
   */
  async reportEnded(failures: FolderFailure[], run: Run): Promise<EndSummary> {
    const { notifier, commands, store, session } = this.deps;
    const summary: EndSummary = { cancelled: false };
    const refresh = { title: l10n.t('Refresh Results'), run: () => commands.execute('codeScanner.refreshResults') };
    const ends = failures.map((f) => ({ folder: f.folder, error: f.error, end: failureOf(f.error, run.abort.signal) }));
    const continuing = ends.flatMap((e) => (e.end.kind === 'continues' ? [{ folder: e.folder, scanId: e.end.scanId }] : []));
    if (continuing.length) {
      // The service has the archives and scans them whatever we do now; nothing they found is shown yet.
      const ids = continuing.map((c) => c.scanId);
      const shown = continuing.length === 1 ? this.shownText(continuing[0]!.folder) : l10n.t('The findings shown are still those of each folder\'s last completed scan.');
      const words = continuingWords(continuing.map((c) => c.folder ?? l10n.t('the workspace')), shown);
      void notifier.info(words.text, refresh, { title: words.ignoreTitle, run: () => { for (const id of ids) store.forgetScan(id); } });
      summary.cancelled = true;
      summary.continuesOnService = ids[0];
    }
    let saidCancelled = continuing.length > 0;
    // Folders that failed the same way (the network, the service) hear of it once.
    const said = new Set<string>();
    for (const { folder, error: err, end } of ends) {
      if (end.kind === 'continues') continue;
      const error = failureSummaryError(end);
      if (error) summary.error ??= error;
      if (end.kind === 'error') {
        if (!said.has(end.message)) await session.reportError(err);
        said.add(end.message);
        continue;
      }
      if (end.kind === 'cancelled') {
        if (!saidCancelled) void notifier.info(failureSentence(end, folder, this.shownText(folder)));
        saidCancelled = true;
        summary.cancelled = true;
        continue;
      }
      const text = failureSentence(end, folder, this.shownText(folder));
      if (end.kind === 'scan-failed') void notifier.error(text);
      else if (end.kind === 'stopped') {
        void notifier.warn(text, refresh);
        summary.continuesOnService ??= end.scanId;
      } else if (end.kind === 'last-chunk') {
        void notifier.info(text);
        summary.cancelled = true;
      } else void notifier.warn(text, { title: l10n.t('Resume Upload'), run: () => commands.execute('codeScanner.resumeUpload') });
    }
    return summary;
  }

  /** A background scan's outcome, for the log only. */
  logOutcomes(folders: FolderOutcome[]): void {
    for (const f of folders) this.deps.session.log.info(savedScanLine(f));
  }

  /** How a background scan ended when it did not finish, for the log and the caller (which shows it in the status bar). */
  logEnded(failures: FolderFailure[], run: Run): EndSummary {
    for (const { folder, error } of failures) this.deps.session.log.warn(`${folder ?? 'the workspace'}: scan on save did not finish: ${errorMessage(error)}`);
    return backgroundEnd(failures.map((f) => f.error), run.abort.signal);
  }

  /**
   * One message when a scan ends: how many issues in each folder, notes, and the files left
   * out by every reason (the same reasons Upload Preview lists), with Show Skipped Files.
   * A notification, so a screen reader hears it.
   */
  announce(folders: FolderOutcome[]): void {
    const { text, anyIssues, leftOut } = finishedWords(folders);
    if (!text) return;
    const actions = [
      ...(anyIssues ? [{ title: l10n.t('Show Issues'), run: () => this.deps.commands.execute('codeScanner.showIssues') }] : []),
      ...(leftOut.length ? [{ title: l10n.t('Show Skipped Files'), run: () => showSkipped(leftOut) }] : []),
    ];
    void this.deps.notifier.info(text, ...actions);
  }
}

/** The files a scan left out, with why; choosing one opens it. */
async function showSkipped(files: (SkippedFile & { folder: string })[]): Promise<void> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const picked = await vscode.window.showQuickPick(
    files.map((f) => ({ label: f.path, description: skipReasonLabel(f.reason), detail: folders.length > 1 ? f.folder : undefined, file: f })),
    { title: l10n.t('Files left out of the scan'), placeHolder: l10n.t('Choose a file to open it'), matchOnDescription: true },
  );
  const folder = picked && folders.find((w) => w.name === picked.file.folder);
  if (folder && !picked.file.path.endsWith('/')) await vscode.window.showTextDocument(vscode.Uri.joinPath(folder.uri, ...picked.file.path.split('/')));
}
