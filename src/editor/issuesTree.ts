import * as path from 'node:path';
import * as vscode from 'vscode';
import { filterIssues, groupIssues, isFixable, severityFromUrgency, type GroupBy, type StoredIssue } from '../core/issues';
import { issueRange } from './diagnostics';
import { escapeMarkdown as escape } from '../core/text/untrusted';
import { groupByArg, issueRefArg, stringArg, stringListArg } from './commands/args';
import type { Commands } from './commands/manager';
import { DisposableObject } from './disposable';
import type { Notifier } from './notifier';
import { fileUri, type ResultsStore } from './resultsStore';
import { describeUser, type Session } from './session';

export type IssueTreeNode =
  | { kind: 'folder'; folderUri: string; name: string }
  | { kind: 'group'; folderUri: string; key: string; label: string; count: number; issues: StoredIssue[] }
  | { kind: 'issue'; folderUri: string; issueId: string; issue: StoredIssue };

const GROUP_BY_KEY = 'codeScanner.issues.groupBy';
const STATUS_FILTER_KEY = 'codeScanner.issues.statusFilter';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

function currentLine(issue: StoredIssue): number {
  return issueRange(issue).start.line + 1;
}

const SEVERITY_ICON = {
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  warning: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  information: new vscode.ThemeIcon('info', new vscode.ThemeColor('problemsInfoIcon.foreground')),
  hint: new vscode.ThemeIcon('lightbulb'),
};

export class IssuesTreeProvider extends DisposableObject implements vscode.TreeDataProvider<IssueTreeNode> {
  private readonly changed = this.own(new vscode.EventEmitter<IssueTreeNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;

  private view: vscode.TreeView<IssueTreeNode> | undefined;

  constructor(private readonly store: ResultsStore, private readonly state: vscode.Memento) {
    super();
  }

  /** What the view shows above its items (filters, nothing found, findings left out). */
  get viewMessage(): string | undefined {
    return this.view?.message;
  }

  attach(view: vscode.TreeView<IssueTreeNode>): void {
    this.view = view;
  }

  get groupBy(): GroupBy {
    return this.state.get<GroupBy>(GROUP_BY_KEY, 'file');
  }

  get statusFilter(): string[] {
    return this.state.get<string[]>(STATUS_FILTER_KEY, []);
  }

  async setGroupBy(by: GroupBy): Promise<void> {
    await this.state.update(GROUP_BY_KEY, by);
    this.refresh();
  }

  async setStatusFilter(statuses: string[]): Promise<void> {
    await this.state.update(STATUS_FILTER_KEY, statuses);
    this.refresh();
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  /** The findings the tree shows: everything in the store except statuses filtered out. */
  visible(folderUri?: string): { folderUri: string; issue: StoredIssue }[] {
    const byFolder = new Map<string, StoredIssue[]>();
    for (const l of this.store.all()) {
      if (folderUri && l.folderUri !== folderUri) continue;
      const list = byFolder.get(l.folderUri) ?? [];
      list.push(l.issue);
      byFolder.set(l.folderUri, list);
    }
    const out: { folderUri: string; issue: StoredIssue }[] = [];
    for (const [f, issues] of byFolder) {
      for (const issue of filterIssues(issues, { statuses: this.statusFilter })) out.push({ folderUri: f, issue });
    }
    return out;
  }

  getChildren(node?: IssueTreeNode): IssueTreeNode[] {
    if (!node) {
      const folders = this.store.foldersWithResults();
      if (folders.length > 1) {
        return folders.map((f) => ({ kind: 'folder', folderUri: f, name: vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(f))?.name ?? f }));
      }
      return folders.length ? this.groups(folders[0]) : [];
    }
    if (node.kind === 'folder') return this.groups(node.folderUri);
    if (node.kind === 'group') return node.issues.map((issue) => ({ kind: 'issue', folderUri: node.folderUri, issueId: issue.id, issue }));
    return [];
  }

  private groups(folderUri: string): IssueTreeNode[] {
    const issues = this.visible(folderUri).map((v) => v.issue);
    return groupIssues(issues, this.groupBy).map((g) => ({ kind: 'group', folderUri, ...g }));
  }

  getTreeItem(node: IssueTreeNode): vscode.TreeItem {
    if (node.kind === 'folder') {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = vscode.ThemeIcon.Folder;
      item.description = plural(this.visible(node.folderUri).length, 'issue');
      item.id = `folder:${node.folderUri}`;
      return item;
    }
    if (node.kind === 'group') return this.groupItem(node);
    return this.issueItem(node);
  }

  private groupItem(node: Extract<IssueTreeNode, { kind: 'group' }>): vscode.TreeItem {
    const by = this.groupBy;
    const item = new vscode.TreeItem('', vscode.TreeItemCollapsibleState.Expanded);
    item.id = `group:${node.folderUri}:${by}:${node.key}`;
    item.contextValue = 'group';
    if (by === 'file') {
      const dir = path.posix.dirname(node.key);
      item.label = path.posix.basename(node.key);
      item.resourceUri = fileUri(node.folderUri, node.key);
      item.description = `${node.count}${dir === '.' ? '' : ` · ${dir}`}`;
      item.tooltip = `${node.key}: ${plural(node.count, 'issue')}`;
    } else {
      item.label = by === 'urgency' ? capitalize(node.label) : node.label;
      item.description = String(node.count);
      item.tooltip = `${item.label}: ${plural(node.count, 'issue')}`;
      if (by === 'urgency') item.iconPath = SEVERITY_ICON[severityFromUrgency(node.key)];
    }
    return item;
  }

  private issueItem(node: Extract<IssueTreeNode, { kind: 'issue' }>): vscode.TreeItem {
    const { issue } = node;
    const line = currentLine(issue);
    const item = new vscode.TreeItem(issue.classificationName, vscode.TreeItemCollapsibleState.None);
    item.id = `issue:${node.folderUri}:${issue.id}`;
    const where = this.groupBy === 'file' ? `line ${line}` : `${path.posix.basename(issue.path)}:${line}`;
    item.description = [issue.classificationId, capitalize(issue.urgency), where, issue.falsePositive ? 'likely false positive' : '']
      .filter(Boolean).join(' · ');
    item.iconPath = issue.falsePositive ? new vscode.ThemeIcon('circle-slash') : SEVERITY_ICON[severityFromUrgency(issue.urgency)];
    item.tooltip = issueTooltip(issue, line);
    item.contextValue = isFixable(issue) ? 'issue.fixable' : 'issue';
    item.command = {
      command: 'vscode.open',
      title: 'Open',
      arguments: [fileUri(node.folderUri, issue.path), { selection: issueRange(issue), preview: true } satisfies vscode.TextDocumentShowOptions],
    };
    return item;
  }

  getParent(node: IssueTreeNode): IssueTreeNode | undefined {
    if (node.kind === 'folder') return undefined;
    const multi = this.store.foldersWithResults().length > 1;
    const folderNode = multi ? this.getChildren().find((n) => n.folderUri === node.folderUri) : undefined;
    if (node.kind === 'group') return folderNode;
    return this.getChildren(folderNode).find((g) => g.kind === 'group' && g.issues.some((i) => i.id === node.issueId));
  }
}

function issueTooltip(issue: StoredIssue, line: number): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  md.appendMarkdown(`**${escape(issue.classificationName)}** (${escape(issue.classificationId)})\n\n`);
  md.appendMarkdown(`Urgency: ${escape(issue.urgency)} · Status: ${escape(issue.status)} · ${escape(issue.path)}:${line}\n\n`);
  if (issue.classificationDescription) md.appendMarkdown(`${escape(issue.classificationDescription)}\n\n`);
  if (issue.falsePositive) md.appendMarkdown(`*Auto-triage: likely false positive.* ${escape(issue.triageReasoning ?? '')}\n\n`);
  if (issue.fix && isFixable(issue)) md.appendMarkdown(`$(lightbulb) Fix available: ${escape(issue.fix.explanation)}`);
  else if (issue.fix) md.appendMarkdown('Suggested fix not offered: the file was not among the uploaded files.');
  else if (issue.fixStatus) md.appendMarkdown(`No suggested fix (auto-fix status: ${escape(issue.fixStatus)}).`);
  return md;
}


export function issueDetails(issue: StoredIssue, folderName?: string): string {
  const lines = [
    `${issue.classificationName} (${issue.classificationId})`,
    `Urgency: ${issue.urgency}`,
    `Status: ${issue.status}`,
    `Location: ${folderName ? `${folderName}/` : ''}${issue.path}:${currentLine(issue)}`,
    `Issue id: ${issue.id}`,
  ];
  if (issue.classificationDescription) lines.push('', issue.classificationDescription);
  if (issue.falsePositive) lines.push('', `Auto-triage: likely false positive. ${issue.triageReasoning ?? ''}`.trim());
  if (issue.fix) lines.push('', `Suggested fix: ${issue.fix.explanation}`, '', issue.fix.diff);
  return lines.join('\n');
}

export function registerIssuesTree(
  context: vscode.ExtensionContext,
  store: ResultsStore,
  session: Session,
  notifier: Notifier,
  commands: Commands,
): IssuesTreeProvider {
  const provider = new IssuesTreeProvider(store, context.workspaceState);
  const view = vscode.window.createTreeView('codeScanner.issues', { treeDataProvider: provider, showCollapseAll: true });
  provider.attach(view);
  const refetch = () => commands.execute('codeScanner.refreshResults');

  const describe = () => {
    view.description = describeUser(session.user);
    const count = provider.visible().length;
    view.badge = count ? { value: count, tooltip: plural(count, 'quality issue') } : undefined;
    const filters: string[] = [];
    if (store.classificationFilter) filters.push(`classification "${store.classificationFilter}"`);
    if (provider.statusFilter.length) filters.push(`status ${provider.statusFilter.join(', ')}`);
    const unreadable = store.unreadableCount();
    const leftOut = unreadable ? ` ${unreadable} finding${unreadable === 1 ? '' : 's'} the service sent could not be read and ${unreadable === 1 ? 'is' : 'are'} not shown (see Show Log).` : '';
    if (filters.length) view.message = `Filtered by ${filters.join(' and ')}${count ? '' : ': no issue matches'}.${leftOut}`;
    else if (store.hasResults() && !count) view.message = `No quality issues found in the last scan.${leftOut}`;
    else view.message = leftOut.trim() || undefined;
  };
  describe();

  context.subscriptions.push(
    provider,
    view,
    store.onDidChange(() => { provider.refresh(); describe(); }),
    session.onDidChangeSession(describe),
    provider.onDidChangeTreeData(describe),
  );
  commands.register('codeScanner.groupBy', async (arg) => {
    const options: { label: string; by: GroupBy }[] = [
      { label: 'File', by: 'file' }, { label: 'Urgency', by: 'urgency' }, { label: 'Classification', by: 'classification' },
    ];
    const by = groupByArg(arg)
      ?? (await vscode.window.showQuickPick(options.map((o) => ({ ...o, picked: o.by === provider.groupBy, description: o.by === provider.groupBy ? 'current' : undefined })), { title: 'Group quality issues by' }))?.by;
    if (by) await provider.setGroupBy(by);
  });
  commands.register('codeScanner.filterByClassification', async (arg) => {
    const value = stringArg(arg) ?? await vscode.window.showInputBox({
      title: 'Filter quality issues by classification',
      prompt: 'Part of a classification id or name (for example CWE-89 or injection). Leave empty to show all.',
      value: store.classificationFilter ?? '',
    });
    if (value === undefined) return;
    await store.setClassificationFilter(value);
    describe();
    await refetch();
  });
  commands.register('codeScanner.filterByStatus', async (arg) => {
    let statuses = stringListArg(arg);
    if (!statuses) {
      const known = new Set([...store.all().map((l) => l.issue.status), ...provider.statusFilter]);
      const picked = await vscode.window.showQuickPick(
        [...known].sort().map((s) => ({ label: s, picked: provider.statusFilter.includes(s) })),
        { title: 'Show quality issues with status', canPickMany: true, placeHolder: 'Pick none to show every status' },
      );
      statuses = picked?.map((p) => p.label);
    }
    if (statuses) await provider.setStatusFilter(statuses);
  });
  commands.register('codeScanner.clearFilters', async () => {
    const hadClassification = !!store.classificationFilter;
    await provider.setStatusFilter([]);
    await store.setClassificationFilter(undefined);
    describe();
    if (hadClassification) await refetch();
  });
  commands.register('codeScanner.copyDetails', async (arg) => {
    const ref = issueRefArg(arg);
    const located = ref ? store.get(ref) : undefined;
    if (!located) return;
    const folderName = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(located.folderUri))?.name;
    await vscode.env.clipboard.writeText(issueDetails(located.issue, folderName));
    notifier.flash('issue details copied.', 3000);
  });
  commands.register('codeScanner.showIssues', () => Promise.resolve(vscode.commands.executeCommand('codeScanner.issues.focus')));
  return provider;
}
