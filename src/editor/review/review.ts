// Reading a finding where it is: the hover on its range, the details view, and local
// dismissal (the service has no operation for it, so it stays in this workspace).
import * as vscode from 'vscode';
import { issueRefArg, plainObjectArg, type IssueRef } from '../commands/args';
import type { SomeCommandHandlers } from '../commands/signatures';
import type { Ctx } from '../context';
import type { FeatureCtx } from '../controllers';
import { fixNoteText } from '../../core/results/fixCheckWords';
import { DetailsView } from './detailsView';
import { issueRange } from '../workspaceFiles';
import { DISMISS_LABELS } from '../../core/results/dismissWords';
import { findingMarkdown } from './findingText';
import { fixWithChat } from './fixWithChat';
import type { DismissReason } from '../results/resultsStore';
import { hideFalsePositives } from '../settings';
import { compareIssues, currentLine, urgencyLabel } from '../../core/issues';
import { oneLine } from '../../core/text/untrusted';
import { l10n } from '../../core/text/l10n';

/** A row of the Quality Issues view (its context menu passes the row). */
function fromTree(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && (arg as { kind?: unknown }).kind === 'issue';
}

const REASONS: { reason: DismissReason; detail: string }[] = [
  { reason: 'false-positive', get detail() { return l10n.t('The finding is wrong: the code is not vulnerable.'); } },
  { reason: 'accepted-risk', get detail() { return l10n.t('The risk is known and accepted for this code.'); } },
  { reason: 'wont-fix', get detail() { return l10n.t('It will not be changed (legacy, test code, out of scope).'); } },
];

function isReason(v: unknown): v is DismissReason {
  return REASONS.some((r) => r.reason === v);
}

/** A quick pick of the findings dismissed in this workspace, most urgent first; says so when there are none. */
async function pickDismissed({ store, notifier }: Pick<Ctx, 'store' | 'notifier'>): Promise<IssueRef | undefined> {
  const dismissed = store.all().filter((l) => store.dismissalOf(l.issue)).sort((a, b) => compareIssues(a.issue, b.issue));
  if (!dismissed.length) {
    void notifier.info(l10n.t('No finding is dismissed in this workspace.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(dismissed.map((l) => ({
    label: oneLine(l.issue.classificationName, 80),
    description: l10n.t('{0} · {1} line {2}', urgencyLabel(l.issue.urgency), oneLine(l.issue.path, 80), currentLine(l.issue)),
    detail: l10n.t('Dismissed as {0}', DISMISS_LABELS[store.dismissalOf(l.issue)!.reason]),
    ref: { folderUri: l.folderUri, issueId: l.issue.id },
  })), { title: l10n.t('Restore a dismissed finding'), placeHolder: l10n.t('It comes back into Problems and the counts'), matchOnDescription: true });
  return picked?.ref;
}

/** The hover, the details view, Show Details and local dismissal. */
export function reviewFeature({ store, commands, notifier, own, features, extension, fixChecks }: FeatureCtx) {
  const details = own(new DetailsView(store, commands, extension.workspaceState, fixChecks));
  own(
    vscode.languages.registerHoverProvider({ scheme: 'file' }, {
      provideHover(document, position) {
        const here = store.forFile(document.uri).filter((l) => !l.issue.stale && l.issue.range && issueRange(l.issue).contains(position));
        if (!here.length) return undefined;
        const hideFp = hideFalsePositives();
        // One hover: where the finding's diagnostic shows (its title and description), ours adds the rest.
        const contents = here.map((l) => {
          // What the check of an applied fix says of it: reported again (Undo Fix), or introduced by one.
          const note = fixChecks.noteFor(l.folderUri, l.issue.id);
          return findingMarkdown(l.issue, {
            ref: { folderUri: l.folderUri, issueId: l.issue.id }, dismissal: store.dismissalOf(l.issue), besideDiagnostic: store.isShown(l.issue, hideFp),
            fixNote: note && fixNoteText(note.role, note.check), undoFix: note?.role === 'again',
          });
        });
        return new vscode.Hover(contents, issueRange(here[0].issue));
      },
    }),
  );

  /**
   * From the tree, hover or details the finding comes as the argument; from the command
   * palette or a key binding it is the one under the cursor (asked for when several overlap).
   */
  async function findingFor(arg: unknown): Promise<IssueRef | undefined | null> {
    const given = issueRefArg(arg);
    if (given) return given;
    const editor = vscode.window.activeTextEditor;
    const here = editor
      ? store.forFile(editor.document.uri).filter((l) => !l.issue.stale && issueRange(l.issue).contains(editor.selection.active))
      : [];
    if (!here.length) {
      void notifier.info(l10n.t('No Code Scanner finding at the cursor. Put the cursor on an underlined finding, or pick one in the Quality Issues view.'));
      return null;
    }
    if (here.length === 1) return { folderUri: here[0].folderUri, issueId: here[0].issue.id };
    const picked = await vscode.window.showQuickPick(
      here.map((l) => ({ label: l.issue.classificationName, description: l10n.t('{0} · line {1}', l.issue.urgency, l.issue.line), ref: { folderUri: l.folderUri, issueId: l.issue.id } })),
      { title: l10n.t('Findings at the cursor'), placeHolder: l10n.t('Which finding?') },
    );
    return picked ? picked.ref : null;
  }

  const showDetails = async (arg: unknown) => {
    const ref = await findingFor(arg);
    if (ref === null) return false;
    if (ref && details.show(ref)) return true;
    void notifier.warn(l10n.t('That issue is no longer in the results. Refresh or rescan.'));
    return false;
  };

  const dismissFinding = async (arg: unknown) => {
    const ref = await findingFor(arg);
    if (ref === null) return false;
    if (!ref || !store.get(ref)) {
      void notifier.warn(l10n.t('That issue is no longer in the results. Refresh or rescan.'));
      return false;
    }
    let reason = plainObjectArg<{ reason: unknown }>(arg)?.reason;
    if (!isReason(reason)) {
      const picked = await vscode.window.showQuickPick(
        REASONS.map((r) => ({ label: DISMISS_LABELS[r.reason], detail: r.detail, reason: r.reason })),
        { title: l10n.t('Dismiss in this workspace'), placeHolder: l10n.t('Why? The service has no way to record this: it stays open there and for your team.') },
      );
      reason = picked?.reason;
    }
    if (!isReason(reason)) return false;
    await store.dismiss([ref], reason);
    // From a row of the view: the focus follows the finding into the Dismissed group.
    if (fromTree(arg)) void commands.execute('codeScanner.revealInTree', ref);
    notifier.done(l10n.t('Finding dismissed here as {0}; the service still lists it.', DISMISS_LABELS[reason]));
    return true;
  };

  return {
    details,
    commands: {
      'codeScanner.showDetails': showDetails,
      'codeScanner.dismissFinding': dismissFinding,
      'codeScanner.fixWithChat': async (arg) => {
        const ref = await findingFor(arg);
        if (ref === null) return undefined;
        const located = ref && store.get(ref);
        if (!located) {
          void notifier.warn(l10n.t('That issue is no longer in the results. Refresh or rescan.'));
          return undefined;
        }
        const refusal = plainObjectArg<{ refusal: unknown }>(arg)?.refusal;
        return fixWithChat(located, notifier, features, { refusal: typeof refusal === 'string' ? refusal : undefined });
      },
      'codeScanner.restoreFinding': async (arg) => {
        // From the Command Palette: a pick of the findings dismissed in this workspace.
        const ref: IssueRef | undefined = issueRefArg(arg) ?? (arg === undefined ? await pickDismissed({ store, notifier }) : undefined);
        if (!ref) return false;
        const restored = (await store.restoreDismissed([ref])) > 0;
        if (restored) notifier.done(l10n.t('Finding restored: it is back in Problems and the counts.'));
        if (restored && fromTree(arg)) void commands.execute('codeScanner.revealInTree', ref);
        return restored;
      },
    } satisfies SomeCommandHandlers,
  };
}
