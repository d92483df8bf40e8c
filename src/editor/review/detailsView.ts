// The finding details view: every field of the service's quality issue, the fix as a
// rendered diff, and the actions (open, preview, apply, copy, dismiss), in a webview whose
// page (detailsHtml.ts) takes its colours from the VS Code theme.
import { STATE_KEYS } from '../../core/persist/stateKeys';
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { IssueRef } from '../commands/args';
import type { Commands } from '../commands/manager';
import { DisposableObject } from '../disposable';
import { detailsHtml } from './detailsHtml';
import { urgencyLabel } from '../../core/issues';
import { l10n } from '../../core/text/l10n';
import { findingText } from './findingText';
import type { FixChecks } from '../fixes/fixChecks';
import { fixCheckSentence } from '../../core/results/fixCheckWords';
import type { LocatedIssue, ResultsStore } from '../results/resultsStore';

const ACTIONS = new Set(['open', 'preview', 'apply', 'chat', 'copy', 'dismiss', 'restore', 'undoFix']);
const VIEW_TYPE = 'codeScanner.details';
const PANEL_OPTIONS: vscode.WebviewOptions = { enableScripts: true, localResourceRoots: [] };
/** workspaceState: the finding the panel showed last, for the panel VS Code brings back after a reload. */
const SHOWN_KEY = STATE_KEYS.detailsShown.key;

/** One details panel, reused for whichever finding is shown. */
export class DetailsView extends DisposableObject {
  private panel: vscode.WebviewPanel | undefined;
  private shown: IssueRef | undefined;
  private html: string | undefined;
  /** The page as last drawn, without its nonce: what it says. */
  private content: string | undefined;

  constructor(private readonly store: ResultsStore, private readonly commands: Commands, private readonly state?: vscode.Memento, private readonly fixChecks?: FixChecks) {
    super();
    this.own(store.onDidChange(() => this.rerender()));
    if (fixChecks) this.own(fixChecks.onDidChange(() => this.rerender()));
    // After a reload VS Code brings the panel back empty: it shows its finding again, or closes.
    this.own(vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, { deserializeWebviewPanel: (panel) => this.restore(panel) }));
  }

  private attach(panel: vscode.WebviewPanel): vscode.WebviewPanel {
    panel.onDidDispose(() => { if (this.panel === panel) { this.panel = undefined; this.shown = undefined; this.html = undefined; this.content = undefined; } });
    panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m));
    return panel;
  }

  private async restore(panel: vscode.WebviewPanel): Promise<void> {
    await this.store.ready;
    const ref = this.state?.get<IssueRef>(SHOWN_KEY);
    const located = ref && typeof ref.folderUri === 'string' && typeof ref.issueId === 'string' ? this.store.get(ref) ?? this.store.fixedFinding(ref) : undefined;
    if (!ref || !located || this.panel) {
      panel.dispose();
      return;
    }
    panel.webview.options = PANEL_OPTIONS;
    this.panel = this.attach(panel);
    this.shown = ref;
    this.content = undefined;
    this.render(located, !this.store.get(ref));
  }

  /** What the panel shows now (for tests): the finding and its page. */
  get current(): { ref: IssueRef; html: string } | undefined {
    return this.shown && this.html !== undefined ? { ref: this.shown, html: this.html } : undefined;
  }

  show(ref: IssueRef): boolean {
    const located = this.store.get(ref);
    if (!located) return false;
    if (!this.panel) {
      this.panel = this.attach(vscode.window.createWebviewPanel(VIEW_TYPE, 'Finding', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, { ...PANEL_OPTIONS, enableFindWidget: true }));
    } else {
      this.panel.reveal(undefined, false);
    }
    this.shown = ref;
    void Promise.resolve(this.state?.update(SHOWN_KEY, ref)).catch(() => undefined);
    this.render(located);
    return true;
  }

  private rerender(): void {
    if (!this.panel || !this.shown) return;
    const located = this.store.get(this.shown);
    if (located) this.render(located);
    else {
      // Fixed (and the file still has the fix): the page says so and offers nothing that would do
      // nothing; once a scan of the file judged the fix, the page says what it found.
      const fixed = this.store.fixedFinding(this.shown) ?? this.checkedFinding(this.shown);
      if (fixed) this.render(fixed, true);
    }
  }

  /** A fixed finding the scan of its file forgot, as its fix's check keeps it. */
  private checkedFinding(ref: IssueRef): LocatedIssue | undefined {
    const c = this.fixChecks?.ofFixed(ref.folderUri, ref.issueId);
    return c ? { folderUri: c.folderUri, uri: c.uri, issue: c.fixed } : undefined;
  }

  /** What the check of a fix says on the page: of the fixed finding, or of one in view it concerns. */
  private checkNote(located: LocatedIssue, fixed: boolean): { text: string; undo: boolean } | undefined {
    if (!this.fixChecks) return undefined;
    if (fixed) {
      const c = this.fixChecks.ofFixed(located.folderUri, located.issue.id);
      return c && c.state.kind !== 'applied' ? { text: fixCheckSentence(c), undo: false } : undefined;
    }
    const note = this.fixChecks.noteFor(located.folderUri, located.issue.id);
    return note ? { text: fixCheckSentence(note.check), undo: note.role === 'again' } : undefined;
  }

  private render(located: LocatedIssue, fixed = false): void {
    if (!this.panel) return;
    const folderName = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(located.folderUri))?.name;
    const checked = this.checkNote(located, fixed);
    const page = (nonce: string) => detailsHtml(located.issue, { nonce, cspSource: this.panel!.webview.cspSource, folderName, dismissal: this.store.dismissalOf(located.issue), fixed, checked });
    // Drawn again only when the page would say something else: every change of the results
    // (a keystroke in any file moves findings) would otherwise reload it, and a screen
    // reader's place and the focus would go back to the title each time.
    const content = page('');
    if (content === this.content) return;
    this.content = content;
    this.html = page(randomBytes(16).toString('base64'));
    this.panel.title = l10n.t('{0}: {1}', urgencyLabel(located.issue.urgency), located.issue.classificationName).slice(0, 80);
    this.panel.webview.html = this.html;
  }

  /** Runs an action the page asked for; anything else the page might send is ignored. */
  async run(action: string): Promise<unknown> {
    const ref = this.shown;
    if (!ref || !ACTIONS.has(action)) return undefined;
    const located = this.store.get(ref) ?? (action === 'open' || action === 'copy' ? this.store.fixedFinding(ref) ?? this.checkedFinding(ref) : undefined);
    if (!located) return undefined;
    switch (action) {
      case 'open':
        return vscode.window.showTextDocument(located.uri, { selection: located.issue.range && new vscode.Range(located.issue.range.start.line, located.issue.range.start.character, located.issue.range.end.line, located.issue.range.end.character), viewColumn: vscode.ViewColumn.One, preview: false });
      case 'preview': return this.commands.execute('codeScanner.previewFix', ref);
      case 'apply': return this.commands.execute('codeScanner.applyFix', ref);
      case 'chat': return this.commands.execute('codeScanner.fixWithChat', ref);
      case 'copy': return this.store.get(ref) ? this.commands.execute('codeScanner.copyDetails', ref) : vscode.env.clipboard.writeText(findingText(located.issue));
      case 'dismiss': return this.commands.execute('codeScanner.dismissFinding', ref);
      case 'restore': return this.commands.execute('codeScanner.restoreFinding', ref);
      case 'undoFix': return this.commands.execute('codeScanner.undoFix', ref);
    }
    return undefined;
  }

  private async onMessage(m: unknown): Promise<void> {
    const action = typeof m === 'object' && m !== null ? (m as { action?: unknown }).action : undefined;
    if (typeof action === 'string') await this.run(action);
  }

  override dispose(): void {
    this.panel?.dispose();
    super.dispose();
  }
}
