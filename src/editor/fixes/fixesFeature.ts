// The fix commands (Preview Fix, Apply Fix, Apply All Fixes in File, Apply All Fixes…) and
// the light bulb, over the one FixController of the context.
import * as vscode from 'vscode';
import { isFixable, isUpgrade } from '../../core/issues';
import { issueRefArg, plainObjectArg } from '../commands/args';
import type { SomeCommandHandlers } from '../commands/signatures';
import type { FeatureCtx } from '../controllers';
import type { LocatedIssue } from '../results/resultsStore';
import { hideFalsePositives } from '../settings';
import { FixActions } from './fixActions';
import { l10n } from '../../core/text/l10n';

/** The fix commands and the light bulb's quick fixes. */
export function fixesFeature({ store, notifier, fixes, fixChecks, own }: FeatureCtx) {
  own(vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FixActions(store), {
    providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
  }));
  return {
    commands: {
  'codeScanner.previewFix': (arg) => fixes.preview(arg),
  'codeScanner.applyFix': async (arg) => {
    const ref = issueRefArg(arg);
    return ref && store.get(ref) ? fixes.apply([ref], { reveal: true }) : (void notifier.warn(l10n.t('That issue is no longer in the results. Refresh or rescan.')), 0);
  },
  // A dependency's upgrade is its fix, reviewed and applied as any other (core/issues/upgrade.ts).
  'codeScanner.upgradeDependency': async (arg) => {
    const ref = issueRefArg(arg);
    const located = ref && store.get(ref);
    if (!ref || !located?.issue.dependency) return (void notifier.warn(l10n.t('That finding is no longer in the results. Refresh or rescan.')), 0);
    if (!isUpgrade(located.issue)) {
      void notifier.info(l10n.t('The exact edit to {0} is not clear, so none is made: copy the fixed version and change it where the project sets it.', located.issue.path));
      return 0;
    }
    return fixes.apply([ref], { reveal: true });
  },
  'codeScanner.copyFixVersion': async (arg) => {
    const ref = issueRefArg(arg);
    const dep = ref && store.get(ref)?.issue.dependency;
    if (!dep?.fixVersion) return (void notifier.warn(l10n.t('That finding names no fixed version.')), undefined);
    await vscode.env.clipboard.writeText(dep.fixVersion);
    notifier.done(l10n.t('Copied {0}: the first version of {1} without this finding.', dep.fixVersion, dep.name));
    return dep.fixVersion;
  },
  'codeScanner.undoFix': async (arg) => {
    // A checked fix's row ({ checkId }), or the finding the service reported again.
    const o = plainObjectArg<{ checkId: unknown }>(arg);
    const ref = issueRefArg(arg);
    const id = typeof o?.checkId === 'number' ? o.checkId : ref ? fixChecks.noteFor(ref.folderUri, ref.issueId)?.check.id : undefined;
    if (id === undefined) return (void notifier.warn(l10n.t('That fix is no longer followed. Use Undo in its file, or rescan.')), false);
    return fixChecks.undo(id);
  },
  'codeScanner.clearFixChecks': (arg) => {
    const folderUri = plainObjectArg<{ folderUri: unknown }>(arg)?.folderUri;
    fixChecks.clear(typeof folderUri === 'string' ? folderUri : undefined);
  },
  'codeScanner.applyPreviewedFix': (arg) => fixes.applyPreviewed(arg),
  'codeScanner.discardPreviewedFix': (arg) => fixes.discardPreviewed(arg),
  'codeScanner.applyAllFixesInFile': async (arg) => {
    // From the palette: the active editor's file; from a code action: its file; from a finding: that finding's file.
    const ref = issueRefArg(arg);
    const uri = arg instanceof vscode.Uri ? arg : ref ? store.get(ref)?.uri : vscode.window.activeTextEditor?.document.uri;
    const fixable = uri ? store.forFile(uri).filter((l) => isFixable(l.issue) && !store.dismissalOf(l.issue)) : [];
    if (!fixable.length) {
      void notifier.info(l10n.t('No suggested fixes for this file.'));
      return 0;
    }
    return fixes.apply(fixable.map((l) => ({ folderUri: l.folderUri, issueId: l.issue.id })));
  },
  'codeScanner.applyAllFixes': async (arg) => {
    // From a tree group: its findings; otherwise every finding in view in the workspace.
    const group = groupNodeArg(arg);
    const scope = group
      ? group.issues.map((issue) => store.get({ folderUri: group.folderUri, issueId: issue.id })).filter((l): l is LocatedIssue => !!l)
      : store.all();
    const hideFp = hideFalsePositives();
    const fixable = scope.filter((l) => isFixable(l.issue) && store.isShown(l.issue, hideFp));
    const choice = plainObjectArg<{ choice: unknown }>(arg)?.choice;
    return fixes.applyAll(fixable, choice === 'apply' || choice === 'review' ? choice : undefined);
  },
    } satisfies SomeCommandHandlers,
  };
}

/** A group node of the findings tree (its context menu passes it). */
function groupNodeArg(v: unknown): { folderUri: string; issues: { id: string }[] } | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const n = v as Record<string, unknown>;
  return n.kind === 'group' && typeof n.folderUri === 'string' && Array.isArray(n.issues) && !n.dismissed
    ? { folderUri: n.folderUri, issues: n.issues.filter((i): i is { id: string } => typeof (i as { id?: unknown })?.id === 'string') }
    : undefined;
}
