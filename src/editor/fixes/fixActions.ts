// The light bulb on a finding: Apply Fix and Preview Fix (when the service suggests one; for a
// dependency, Upgrade to its fixed version, or the version to copy where the edit is not clear),
// Show Details, and Apply All Fixes in File with the count it will apply.
import * as vscode from 'vscode';
import { isFixable, isUpgrade } from '../../core/issues';
import { oneLine } from '../../core/text/untrusted';
import type { IssueRef } from '../commands/args';
import { commandCall } from '../commands/manager';
import { issueForDiagnostic } from '../results/diagnostics';
import type { ResultsStore } from '../results/resultsStore';
import { l10n } from '../../core/text/l10n';

export class FixActions implements vscode.CodeActionProvider {
  constructor(private readonly store: ResultsStore) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const here = this.store.forFile(document.uri);
    if (!here.length) return [];
    // What Apply All Fixes in File will apply: a dismissed finding's fix is not among them.
    const fixable = here.filter((l) => isFixable(l.issue) && !this.store.dismissalOf(l.issue));
    const actions: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      const l = issueForDiagnostic(here, d);
      if (!l) continue;
      const ref: IssueRef = { folderUri: l.folderUri, issueId: l.issue.id };
      const dep = l.issue.dependency;
      if (dep && isUpgrade(l.issue) && isFixable(l.issue)) {
        // A dependency's fix is its upgrade: named for what it does.
        const upgrade = new vscode.CodeAction(l10n.t('Code Scanner: Upgrade {0} to {1}', oneLine(dep.name, 60), oneLine(dep.fixVersion ?? '', 40)), vscode.CodeActionKind.QuickFix);
        upgrade.diagnostics = [d];
        upgrade.isPreferred = true;
        upgrade.command = commandCall('codeScanner.upgradeDependency', l10n.t('Upgrade to the Fixed Version'), ref);
        const preview = new vscode.CodeAction(l10n.t('Code Scanner: Preview the Upgrade of {0}', oneLine(dep.name, 60)), vscode.CodeActionKind.QuickFix);
        preview.diagnostics = [d];
        preview.command = commandCall('codeScanner.previewFix', l10n.t('Preview Fix'), ref);
        actions.push(upgrade, preview);
      } else if (dep?.fixVersion) {
        const copy = new vscode.CodeAction(l10n.t('Code Scanner: Copy the Fixed Version of {0} ({1})', oneLine(dep.name, 60), oneLine(dep.fixVersion, 40)), vscode.CodeActionKind.QuickFix);
        copy.diagnostics = [d];
        copy.command = commandCall('codeScanner.copyFixVersion', l10n.t('Copy the Fixed Version'), ref);
        actions.push(copy);
      } else if (isFixable(l.issue)) {
        const explanation = oneLine(l.issue.fix!.explanation || l.issue.classificationName, 60);
        const apply = new vscode.CodeAction(l10n.t('Code Scanner: Apply Fix — {0}', explanation), vscode.CodeActionKind.QuickFix);
        apply.diagnostics = [d];
        apply.isPreferred = true;
        apply.command = commandCall('codeScanner.applyFix', l10n.t('Apply Fix'), ref);
        const preview = new vscode.CodeAction(l10n.t('Code Scanner: Preview Fix — {0}', explanation), vscode.CodeActionKind.QuickFix);
        preview.diagnostics = [d];
        preview.command = commandCall('codeScanner.previewFix', l10n.t('Preview Fix'), ref);
        actions.push(apply, preview);
      }
      // Every finding, fixable or not, can be read in full from the light bulb.
      const details = new vscode.CodeAction(l10n.t('Code Scanner: Show Details — {0}', oneLine(l.issue.classificationName, 60)), vscode.CodeActionKind.QuickFix);
      details.diagnostics = [d];
      details.command = commandCall('codeScanner.showDetails', l10n.t('Show Finding Details'), ref);
      actions.push(details);
      const chat = new vscode.CodeAction(l10n.t('Code Scanner: Fix with Chat — {0}', oneLine(l.issue.classificationName, 60)), vscode.CodeActionKind.QuickFix);
      chat.diagnostics = [d];
      chat.command = commandCall('codeScanner.fixWithChat', l10n.t('Fix with Chat'), ref);
      actions.push(chat);
    }
    if (fixable.length > 1 && actions.some((a) => a.command?.command === 'codeScanner.applyFix')) {
      const all = new vscode.CodeAction(l10n.t('Code Scanner: Apply All Fixes in File ({0})', fixable.length), vscode.CodeActionKind.QuickFix);
      all.command = commandCall('codeScanner.applyAllFixesInFile', l10n.t('Apply All Fixes in File'), document.uri);
      actions.push(all);
    }
    return actions;
  }
}
