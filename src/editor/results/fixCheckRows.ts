// The rows of the Checked Fixes group of the findings tree: each applied and saved fix with
// what the service said of it, in words a screen reader hears as they are shown.
import * as vscode from 'vscode';
import { fixCheckSentence, fixCheckStateText } from '../../core/results/fixCheckWords';
import { oneLine } from '../../core/text/untrusted';
import { l10n, plural } from '../../core/text/l10n';
import type { TrackedFix } from '../fixes/fixChecks';
import { fileUri, issueRange } from '../workspaceFiles';

const ICONS: Record<TrackedFix['state']['kind'], vscode.ThemeIcon> = {
  applied: new vscode.ThemeIcon('edit'),
  verifying: new vscode.ThemeIcon('sync~spin'),
  verified: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  notRemoved: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  introduced: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  unknown: new vscode.ThemeIcon('question'),
};

/** The row's context value: the menus offer Undo Fix on `fixCheck.notRemoved`. */
const CONTEXT: Record<TrackedFix['state']['kind'], string> = {
  applied: 'fixCheck.applied',
  verifying: 'fixCheck.verifying',
  verified: 'fixCheck.verified',
  notRemoved: 'fixCheck.notRemoved',
  introduced: 'fixCheck.introduced',
  unknown: 'fixCheck.unknown',
};

export function fixChecksGroupItem(folderUri: string, count: number): vscode.TreeItem {
  const label = l10n.t('Checked Fixes');
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `group:${folderUri}:fix-checks`;
  item.description = String(count);
  item.iconPath = new vscode.ThemeIcon('checklist');
  item.tooltip = l10n.t('The fixes applied and saved since, each checked with a scan of its file. Clear forgets the judged ones.');
  item.contextValue = 'group.fixChecks';
  item.accessibilityInformation = { label: l10n.t('Checked Fixes, {0}', plural(count, l10n.t('{0} fix'), l10n.t('{0} fixes'))) };
  return item;
}

export function fixCheckItem(c: TrackedFix): vscode.TreeItem {
  const introduced = c.state.kind === 'introduced';
  const item = new vscode.TreeItem(oneLine(c.fixed.classificationName || c.fixed.classificationId, 80), introduced ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  item.id = ['fix-check', c.folderUri, String(c.id)].join(':');
  const line = (c.fixed.range?.start.line ?? c.fixed.line - 1) + 1;
  item.description = `${fixCheckStateText(c.state)} · ${c.path.slice(c.path.lastIndexOf('/') + 1)}:${line}`;
  item.iconPath = ICONS[c.state.kind];
  item.tooltip = fixCheckSentence(c);
  item.contextValue = CONTEXT[c.state.kind];
  item.accessibilityInformation = { label: `${item.label as string}, ${fixCheckStateText(c.state)}, ${l10n.t('{0} line {1}', c.path, line)}` };
  // Reported again: its details (with Undo Fix); otherwise the fixed code itself.
  item.command = c.state.kind === 'notRemoved'
    ? { command: 'codeScanner.showDetails', title: l10n.t('Show Details'), arguments: [{ folderUri: c.folderUri, issueId: c.state.issueId }] }
    : { command: 'vscode.open', title: l10n.t('Open'), arguments: [fileUri(c.folderUri, c.path), { selection: issueRange(c.fixed), preview: true } satisfies vscode.TextDocumentShowOptions] };
  return item;
}
