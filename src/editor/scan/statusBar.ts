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
import { scanOnSaveMode, scanOnSaveText } from './scanOnSave';
import { l10n, plural } from '../../core/text/l10n';

/** What the item said since activation, the latest 200 changes: what a person saw from the start (for tests). */
const shown: string[] = [];
export function statusBarShown(): readonly string[] {
  return shown;
}

/** Idle: a Scan button. Running: the percentage (click: progress/cancel). After: the issue count (click: the tree). */
export function statusBarFeature({ extension: context, session, store, scans, saves, uploads }: FeatureCtx): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem('codeScanner.status', vscode.StatusBarAlignment.Left, 50);
  item.name = l10n.t('Code Scanner');

  let ticking: NodeJS.Timeout | undefined;
  const update = () => {
    const state: ScanState | undefined = scans.state;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(l10n.t('**Code Scanner**\n\n'));
    const user = session.user;
    tooltip.appendMarkdown(session.tokenRejected
      ? l10n.t('The service rejected the API key (expired or revoked): sign in again.\n\n')
      : session.isSignedIn() ? l10n.t('Signed in as {0}\n\n', escape(describeUser(user) || l10n.t('unknown user'))) : session.stateKnown ? l10n.t('Not signed in\n\n') : '');
    // Screen readers get plain words, never `$(icon)` syntax.
    let spoken: string;
    const summaries = folderSummaries(store, hideFalsePositives());
    const notes = summaryNotes(summaries, false);
    const pending = store.pendingScans().length > 0;
    if (state) {
      // Once the service has the scan a percentage means little: its state and the time say more.
      const waiting = state.stage === 'results';
      const short = state.message.length > 48 ? `${state.message.slice(0, 47)}…` : state.message;
      item.text = waiting ? `$(sync~spin) ${short}` : state.percent === undefined ? l10n.t('$(sync~spin) Scanning…') : l10n.t('$(sync~spin) Scanning {0}%', state.percent);
      spoken = waiting ? l10n.t('Code Scanner: {0}', state.message) : state.percent === undefined ? l10n.t('Code Scanner: scanning') : l10n.t('Code Scanner: scanning, {0} percent', state.percent);
      tooltip.appendMarkdown(l10n.t('{0}\n\nClick to see progress or cancel.', escape(state.message)));
      item.command = 'codeScanner.showScanProgress' satisfies CommandId;
      item.backgroundColor = undefined;
    } else if (store.hasResults()) {
      // The same count as the view's badge and Problems (view filters do not change it).
      // "No issues" only ever comes from a completed scan that found none (hasResults).
      const count = store.shownCount(hideFalsePositives());
      // Signed out, the findings stay (they are the last scans'), and the bar says what changed.
      const signedOut = session.stateKnown && !session.isSignedIn();
      item.text = `${count ? `$(warning) ${plural(count, l10n.t('{0} issue'), l10n.t('{0} issues'))}` : l10n.t('$(check) No issues')}${signedOut ? l10n.t(' · $(sign-in) signed out') : ''}`;
      spoken = l10n.t('Code Scanner: {0}{1}{2}', count ? `${plural(count, l10n.t('{0} quality issue'), l10n.t('{0} quality issues'))}` : l10n.t('no quality issues'), signedOut ? l10n.t(', signed out') : '', notes.length ? `. ${notes.join(' ')}` : '');
      // A sentence's end is the language's (。 in Japanese), so it goes through l10n too.
      for (const f of summaries) if (f.results) tooltip.appendMarkdown(`${escape(summaries.length > 1 ? l10n.t('{0}: {1}.', f.name, f.results) : l10n.t('{0}.', capitalize(f.results)))}\n\n`);
      for (const n of notes) tooltip.appendMarkdown(`${escape(n)}\n\n`);
      if (signedOut) tooltip.appendMarkdown(l10n.t('{0} Click to sign in.', SIGNED_OUT_NOTE()));
      else tooltip.appendMarkdown(l10n.t('Click to show them.'));
      item.command = (signedOut ? 'codeScanner.signIn' : 'codeScanner.showIssues') satisfies CommandId;
    } else if (pending && session.isSignedIn()) {
      // Uploaded, not read yet: never "no issues", and one click asks the service again.
      item.text = l10n.t('$(cloud) Scan on the service');
      spoken = l10n.t('Code Scanner: a scan is on the service. {0}', notes.join(' '));
      for (const n of notes) tooltip.appendMarkdown(`${escape(n)}\n\n`);
      tooltip.appendMarkdown(l10n.t('Click to refresh the results.'));
      item.command = 'codeScanner.refreshResults' satisfies CommandId;
    } else if (!vscode.workspace.isTrusted) {
      // Why there is no Scan button: said in the bar itself, not only when clicked.
      item.text = l10n.t('$(workspace-untrusted) Scan needs trust');
      spoken = l10n.t('Code Scanner: scanning needs a trusted workspace');
      tooltip.appendMarkdown(l10n.t('Scanning uploads workspace files, so it needs a trusted workspace (this one is in Restricted Mode). Click to manage workspace trust.'));
      item.command = 'workbench.trust.manage';
    } else if (session.stateKnown && !session.isSignedIn()) {
      item.text = l10n.t('$(sign-in) Sign in to scan');
      spoken = l10n.t('Code Scanner: sign in to scan');
      tooltip.appendMarkdown(l10n.t('Sign in with an API key of the code scanning service to scan this workspace.'));
      item.command = 'codeScanner.signIn' satisfies CommandId;
    } else {
      item.text = l10n.t('$(shield) Scan');
      spoken = l10n.t('Code Scanner: scan the workspace');
      for (const n of notes) tooltip.appendMarkdown(`${escape(n)}\n\n`);
      tooltip.appendMarkdown(l10n.t('Click to scan the workspace.'));
      item.command = 'codeScanner.scanWorkspace' satisfies CommandId;
    }
    // Scan on save, discreetly: what waits, a pause for the request limit, a failure, a save
    // that could not be scanned and why.
    const onSave = scanOnSaveText(saves.state, Date.now(), !(vscode.workspace.workspaceFolders ?? []).some((f) => scanOnSaveMode(f) !== 'off'));
    if (onSave && !state) {
      if (onSave.short) item.text += ` · ${onSave.short}`;
      spoken += `. ${onSave.long}`;
      tooltip.appendMarkdown(`\n\n${escape(onSave.long)}`);
    }
    // The service address changed and the key is not sent there yet: scans wait on that answer.
    const moved = state ? undefined : session.addressChange();
    if (moved) {
      item.text += l10n.t(' · $(key) new service address');
      const words = l10n.t('The service address changed to {0} since you signed in at {1}: your API key is not sent there until you allow it, so scans wait.', moved.to, moved.from);
      spoken += `. ${words}`;
      tooltip.appendMarkdown(l10n.t('\n\n{0} Click to answer.', escape(words)));
      item.command = 'codeScanner.allowServiceAddress' satisfies CommandId;
    }
    // An upload a reload or a failure interrupted stays in view until it is resumed or replaced.
    const waiting = state ? undefined : waitingUploadsNote(uploads.waiting());
    if (waiting) {
      item.text += l10n.t(' · $(cloud-upload) upload to resume');
      spoken += `. ${waiting}`;
      tooltip.appendMarkdown(l10n.t('\n\n{0} Click to resume it.', escape(waiting)));
      item.command = 'codeScanner.resumeUpload' satisfies CommandId;
    }
    if (saves.held && !state) {
      item.text += l10n.t(' · $(circle-slash) save not scanned');
      const why = l10n.t('Scan on save did not scan your last save: {0}.', saves.held);
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
    if (shown.at(-1) !== item.text && shown.push(item.text) > 200) shown.shift();
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

