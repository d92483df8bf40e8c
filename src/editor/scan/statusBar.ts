import * as vscode from 'vscode';
import type { CommandId } from '../commands/signatures';
import type { FeatureCtx } from '../controllers';
import { escapeMarkdown as escape } from '../../core/text/untrusted';
import type { ScanState } from './scanController';
import { hideFalsePositives } from '../settings';
import { capitalize } from '../../core/issues';
import { folderSummaries, summaryNotes, waitingUploadsNote } from '../results/resultsSummary';
import { SIGNED_OUT_NOTE } from '../../core/results';
import { describeUser } from '../account/user';
import { scanOnSaveText } from './scanOnSave';
import { plural } from '../../core/text/plural';

/** Idle: a Scan button. Running: the percentage (click: progress/cancel). After: the issue count (click: the tree). */
export function statusBarFeature({ extension: context, session, store, scans, saves, uploads }: FeatureCtx): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem('codeScanner.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Code Scanner';

  let ticking: NodeJS.Timeout | undefined;
  const update = () => {
    const state: ScanState | undefined = scans.state;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown('**Code Scanner**\n\n');
    const user = session.user;
    tooltip.appendMarkdown(session.tokenRejected
      ? 'The service rejected the API key (expired or revoked): sign in again.\n\n'
      : session.isSignedIn() ? `Signed in as ${escape(describeUser(user) || 'unknown user')}\n\n` : 'Not signed in\n\n');
    // Screen readers get plain words, never `$(icon)` syntax.
    let spoken: string;
    const summaries = folderSummaries(store, hideFalsePositives());
    const notes = summaryNotes(summaries, false);
    const pending = store.pendingScans().length > 0;
    if (state) {
      // Once the service has the scan a percentage means little: its state and the time say more.
      const waiting = state.stage === 'results';
      const short = state.message.length > 48 ? `${state.message.slice(0, 47)}…` : state.message;
      item.text = waiting ? `$(sync~spin) ${short}` : state.percent === undefined ? '$(sync~spin) Scanning…' : `$(sync~spin) Scanning ${state.percent}%`;
      spoken = waiting ? `Code Scanner: ${state.message}` : state.percent === undefined ? 'Code Scanner: scanning' : `Code Scanner: scanning, ${state.percent} percent`;
      tooltip.appendMarkdown(`${escape(state.message)}\n\nClick to see progress or cancel.`);
      item.command = 'codeScanner.showScanProgress' satisfies CommandId;
      item.backgroundColor = undefined;
    } else if (store.hasResults()) {
      // The same count as the view's badge and Problems (view filters do not change it).
      // "No issues" only ever comes from a completed scan that found none (hasResults).
      const count = store.shownCount(hideFalsePositives());
      // Signed out, the findings stay (they are the last scans'), and the bar says what changed.
      const signedOut = !session.isSignedIn();
      item.text = `${count ? `$(warning) ${plural(count, 'issue')}` : '$(check) No issues'}${signedOut ? ' · $(sign-in) signed out' : ''}`;
      spoken = `Code Scanner: ${count ? `${plural(count, 'quality issue')}` : 'no quality issues'}${signedOut ? ', signed out' : ''}${notes.length ? `. ${notes.join(' ')}` : ''}`;
      for (const f of summaries) if (f.results) tooltip.appendMarkdown(`${escape(summaries.length > 1 ? `${f.name}: ${f.results}.` : `${capitalize(f.results)}.`)}\n\n`);
      for (const n of notes) tooltip.appendMarkdown(`${escape(n)}\n\n`);
      if (signedOut) tooltip.appendMarkdown(`${SIGNED_OUT_NOTE} Click to sign in.`);
      else tooltip.appendMarkdown('Click to show them.');
      item.command = (signedOut ? 'codeScanner.signIn' : 'codeScanner.showIssues') satisfies CommandId;
    } else if (pending && session.isSignedIn()) {
      // Uploaded, not read yet: never "no issues", and one click asks the service again.
      item.text = '$(cloud) Scan on the service';
      spoken = `Code Scanner: a scan is on the service. ${notes.join(' ')}`;
      for (const n of notes) tooltip.appendMarkdown(`${escape(n)}\n\n`);
      tooltip.appendMarkdown('Click to refresh the results.');
      item.command = 'codeScanner.refreshResults' satisfies CommandId;
    } else if (!vscode.workspace.isTrusted) {
      // Why there is no Scan button: said in the bar itself, not only when clicked.
      item.text = '$(workspace-untrusted) Scan needs trust';
      spoken = 'Code Scanner: scanning needs a trusted workspace';
      tooltip.appendMarkdown('Scanning uploads workspace files, so it needs a trusted workspace (this one is in Restricted Mode). Click to manage workspace trust.');
      item.command = 'workbench.trust.manage';
    } else if (!session.isSignedIn()) {
      item.text = '$(sign-in) Sign in to scan';
      spoken = 'Code Scanner: sign in to scan';
      tooltip.appendMarkdown('Sign in with an API key of the code scanning service to scan this workspace.');
      item.command = 'codeScanner.signIn' satisfies CommandId;
    } else {
      item.text = '$(shield) Scan';
      spoken = 'Code Scanner: scan the workspace';
      for (const n of notes) tooltip.appendMarkdown(`${escape(n)}\n\n`);
      tooltip.appendMarkdown('Click to scan the workspace.');
      item.command = 'codeScanner.scanWorkspace' satisfies CommandId;
    }
    // Scan on save, discreetly: what waits, a pause for the request limit, a failure, a save
    // that could not be scanned and why.
    const onSave = scanOnSaveText(saves.state);
    if (onSave && !state) {
      if (onSave.short) item.text += ` · ${onSave.short}`;
      spoken += `. ${onSave.long}`;
      tooltip.appendMarkdown(`\n\n${escape(onSave.long)}`);
    }
    // The service address changed and the key is not sent there yet: scans wait on that answer.
    const moved = state ? undefined : session.addressChange();
    if (moved) {
      item.text += ' · $(key) new service address';
      const words = `The service address changed to ${moved.to} since you signed in at ${moved.from}: your API key is not sent there until you allow it, so scans wait.`;
      spoken += `. ${words}`;
      tooltip.appendMarkdown(`\n\n${escape(words)} Click to answer.`);
      item.command = 'codeScanner.allowServiceAddress' satisfies CommandId;
    }
    // An upload a reload or a failure interrupted stays in view until it is resumed or replaced.
    const waiting = state ? undefined : waitingUploadsNote(uploads.waiting());
    if (waiting) {
      item.text += ' · $(cloud-upload) upload to resume';
      spoken += `. ${waiting}`;
      tooltip.appendMarkdown(`\n\n${escape(waiting)} Click to resume it.`);
      item.command = 'codeScanner.resumeUpload' satisfies CommandId;
    }
    if (saves.held && !state) {
      item.text += ' · $(circle-slash) save not scanned';
      const why = `Scan on save did not scan your last save: ${saves.held}.`;
      spoken += `. ${why}`;
      tooltip.appendMarkdown(`\n\n${escape(why)}`);
    }
    // A countdown counts down: drawn again each second while a save waits or the scans pause.
    const counting = !state && (saves.state.kind === 'waiting' || saves.state.kind === 'paused');
    if (counting && !ticking) ticking = setInterval(update, 1000);
    else if (!counting && ticking) {
      clearInterval(ticking);
      ticking = undefined;
    }
    item.accessibilityInformation = { label: spoken, role: 'button' };
    item.tooltip = tooltip;
    item.show();
  };
  update();
  context.subscriptions.push(
    item,
    { dispose: () => clearInterval(ticking) },
    scans.onDidChangeState(update),
    uploads.onDidChangeWaiting(update),
    saves.onDidChangeState(update),
    store.onDidChange((e) => { if (!e.moved) update(); }),
    session.onDidChangeSession(update),
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('codeScanner.hideFalsePositives')) update(); }),
    vscode.workspace.onDidGrantWorkspaceTrust(update),
  );
  return item;
}

