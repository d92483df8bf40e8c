// The Quality Issues view: findings grouped by file, urgency or classification, most urgent
// and reachable first, narrowed by view filters (which leave Problems and counts alone),
// locally dismissed findings in their own group.
import { STATE_KEYS } from '../../core/persist/stateKeys';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isFindingKind, isUpgrade, type FindingKind } from '../../core/issues';
import { compareIssues, urgencyLabel, findingRow, groupIssues, sortedIssues, isFixable, matchesView, severityFromUrgency, type GroupBy, type StoredIssue, type ViewFilter } from '../../core/issues';
import { issueRange } from '../workspaceFiles';
import { DisposableObject } from '../disposable';
import { DISMISS_LABELS } from '../../core/results/dismissWords';
import { findingMarkdown } from '../review/findingText';
import type { ResultsStore } from './resultsStore';
import { fileUri, relativeTo } from '../workspaceFiles';
import type { ProjectNames } from '../scan/projectNames';
import { describeProject } from '../settings';
import { verdictText } from '../../core/results/pushVerdict';
import { fixNoteText } from '../../core/results/fixCheckWords';
import type { FixChecks } from '../fixes/fixChecks';
import { fixCheckItem, fixChecksGroupItem } from './fixCheckRows';
import { l10n, plural } from '../../core/text/l10n';

/** `pushCheck`: the group (and its findings) of the last check before a push that would block CI. */
export type IssueTreeNode =
  | { kind: 'folder'; folderUri: string; name: string }
  | { kind: 'group'; folderUri: string; key: string; label: string; count: number; issues: StoredIssue[]; dismissed?: boolean; pushCheck?: boolean; fixChecks?: boolean }
  | { kind: 'issue'; folderUri: string; issueId: string; issue: StoredIssue; pushCheck?: boolean; underCheck?: number }
  /** An applied fix and what the service said of it (Checked Fixes). */
  | { kind: 'fixCheck'; folderUri: string; checkId: number };

const FIX_CHECKS_GROUP = '\0fix-checks';

const PUSH_CHECK_GROUP = '\0push-check';

const GROUP_BY_KEY = STATE_KEYS.issuesGroupBy.key;
const STATUS_FILTER_KEY = STATE_KEYS.issuesStatusFilter.key;
const URGENCY_FILTER_KEY = STATE_KEYS.issuesUrgencyFilter.key;
const REACHABLE_KEY = STATE_KEYS.issuesReachableOnly.key;
const MINE_KEY = STATE_KEYS.issuesAssignedToMe.key;
const NEW_KEY = STATE_KEYS.issuesNewOnly.key;
const POLICY_KEY = STATE_KEYS.issuesPolicyOnly.key;
const KIND_FILTER_KEY = STATE_KEYS.issuesKindFilter.key;
/** The view's on/off filters and where each is remembered. */
const TOGGLE_KEYS = { reachable: REACHABLE_KEY, new: NEW_KEY, policy: POLICY_KEY, mine: MINE_KEY } as const;
type ViewToggle = keyof typeof TOGGLE_KEYS;
const DISMISSED_GROUP = '\u0000dismissed';
/** Groups are expanded up to this many findings in a folder, collapsed beyond. */
const EXPAND_UP_TO = 300;

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
  /** The group nodes last handed to the view, per folder (refreshFiles fires them by identity). */
  private readonly shownGroups = new Map<string, IssueTreeNode[]>();
  private expandGroups = true;

  constructor(
    private readonly store: ResultsStore,
    private readonly state: vscode.Memento,
    private readonly me: () => { id?: string; email?: string } | undefined,
    private readonly projects?: ProjectNames,
    private readonly fixChecks?: FixChecks,
  ) {
    super();
    if (fixChecks) this.own(fixChecks.onDidChange(() => this.refresh()));
  }

  /** The checked fixes of a folder shown in the tree: those saved since they were applied. */
  private shownChecks(folderUri: string) {
    return this.fixChecks?.all(folderUri).filter((c) => c.state.kind !== 'applied') ?? [];
  }

  /** What the view shows above its items (filters, nothing found, findings left out). */
  get viewMessage(): string | undefined {
    return this.view?.message;
  }

  get viewBadge(): vscode.ViewBadge | undefined {
    return this.view?.badge;
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

  /** The view's filters as they are now. */
  get filter(): ViewFilter {
    const me = this.state.get<boolean>(MINE_KEY, false) ? this.me() : undefined;
    return {
      classification: this.store.classificationFilter,
      statuses: this.statusFilter,
      urgencies: this.state.get<string[]>(URGENCY_FILTER_KEY, []),
      reachableOnly: this.state.get<boolean>(REACHABLE_KEY, false),
      newOnly: this.state.get<boolean>(NEW_KEY, false),
      policyOnly: this.state.get<boolean>(POLICY_KEY, false),
      assignedTo: me && (me.id || me.email) ? me : undefined,
      kinds: this.state.get<FindingKind[]>(KIND_FILTER_KEY, []).filter(isFindingKind),
    };
  }

  get assignedToMe(): boolean {
    return this.state.get<boolean>(MINE_KEY, false);
  }

  async setGroupBy(by: GroupBy): Promise<void> {
    await this.state.update(GROUP_BY_KEY, by);
    this.refresh();
  }

  async setStatusFilter(statuses: string[]): Promise<void> {
    await this.state.update(STATUS_FILTER_KEY, statuses);
    this.refresh();
  }

  async setKindFilter(kinds: FindingKind[]): Promise<void> {
    await this.state.update(KIND_FILTER_KEY, kinds.length ? kinds : undefined);
    this.refresh();
  }

  async setUrgencyFilter(urgencies: string[]): Promise<void> {
    await this.state.update(URGENCY_FILTER_KEY, urgencies);
    this.refresh();
  }

  /** Turns one of the view's on/off filters on or off. */
  async setToggle(toggle: ViewToggle, on: boolean): Promise<void> {
    await this.state.update(TOGGLE_KEYS[toggle], on || undefined);
    this.refresh();
  }

  async clearFilters(): Promise<void> {
    for (const k of [STATUS_FILTER_KEY, URGENCY_FILTER_KEY, KIND_FILTER_KEY, ...Object.values(TOGGLE_KEYS)]) await this.state.update(k, undefined);
    await this.store.setClassificationFilter(undefined);
    this.refresh();
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  /**
   * After typing moved findings in some files: only the groups holding their findings are
   * refreshed (labels carry line numbers), not the whole tree of maybe thousands of items.
   */
  refreshFiles(uris: readonly vscode.Uri[]): void {
    const touched = new Set<IssueTreeNode>();
    for (const uri of uris) {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (!folder) continue;
      const folderUri = folder.uri.toString();
      const rel = relativeTo(folder.uri, uri);
      for (const node of this.shownGroups.get(folderUri) ?? []) {
        if (node.kind === 'group' && node.issues.some((i) => i.path === rel)) touched.add(node);
      }
    }
    for (const node of touched) this.changed.fire(node);
  }

  /** The findings the tree lists in a folder (dismissed ones excluded): everything the view filters let through. */
  visibleIssues(folderUri: string): StoredIssue[] {
    const f = this.filter;
    return this.store.issuesIn(folderUri).filter((issue) => !this.store.dismissalOf(issue) && matchesView(issue, f));
  }

  /**
   * The view's counts in one pass, allocating nothing per finding: it runs on every change
   * of the store, in the same task as the other listeners, over maybe 50,000 findings.
   */
  tally(): { listed: number; undismissed: number; stale: number } {
    const f = this.filter;
    let listed = 0;
    let undismissed = 0;
    let stale = 0;
    for (const folderUri of this.store.folderUris()) {
      for (const issue of this.store.issuesIn(folderUri)) {
        if (issue.stale) stale++;
        if (this.store.dismissalOf(issue)) continue;
        undismissed++;
        if (matchesView(issue, f)) listed++;
      }
    }
    return { listed, undismissed, stale };
  }

  private dismissed(folderUri: string): StoredIssue[] {
    return this.store.issuesIn(folderUri).filter((issue) => this.store.dismissalOf(issue));
  }

  getChildren(node?: IssueTreeNode): IssueTreeNode[] {
    if (!node) {
      const checked = this.store.pushCheckFolders().filter((f) => this.store.pushCheckOf(f)?.issues.length);
      const fixed = [...new Set(this.fixChecks?.all().filter((c) => c.state.kind !== 'applied').map((c) => c.folderUri) ?? [])];
      const folders = [...new Set([...this.store.foldersWithResults(), ...checked, ...fixed])];
      if (folders.length > 1) {
        // In the Explorer's order, whichever folder's results arrived first.
        const rows = folders.map((f) => ({ f, ws: vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(f)) }));
        // Folders no longer in the workspace come last, by URI.
        const order = (r: (typeof rows)[number]) => r.ws?.index ?? Number.MAX_SAFE_INTEGER;
        rows.sort((a, b) => order(a) - order(b) || (a.f < b.f ? -1 : a.f > b.f ? 1 : 0));
        return rows.map(({ f, ws }) => ({ kind: 'folder', folderUri: f, name: ws?.name ?? f }));
      }
      return folders.length ? this.groups(folders[0]) : [];
    }
    if (node.kind === 'folder') return this.groups(node.folderUri);
    if (node.kind === 'group' && node.fixChecks) return this.shownChecks(node.folderUri).map((c) => ({ kind: 'fixCheck', folderUri: node.folderUri, checkId: c.id }));
    if (node.kind === 'fixCheck') {
      const c = this.fixChecks?.get(node.checkId);
      if (c?.state.kind !== 'introduced') return [];
      return c.state.issueIds.map((id) => this.store.get({ folderUri: node.folderUri, issueId: id })).filter((l) => !!l)
        .map((l) => ({ kind: 'issue', folderUri: node.folderUri, issueId: l.issue.id, issue: l.issue, underCheck: node.checkId }));
    }
    // Sorted again: typing may have moved findings of a file past each other.
    if (node.kind === 'group') return sortedIssues(node.issues).map((issue) => ({ kind: 'issue', folderUri: node.folderUri, issueId: issue.id, issue, ...(node.pushCheck ? { pushCheck: true } : {}) }));
    return [];
  }

  private groups(folderUri: string): IssueTreeNode[] {
    const issues = this.visibleIssues(folderUri);
    const nodes: IssueTreeNode[] = groupIssues(issues, this.groupBy).map((g) => ({ kind: 'group', folderUri, ...g }));
    // What would block CI, first: the findings of the last check of what a push would send.
    const check = this.store.pushCheckOf(folderUri);
    if (check?.issues.length) {
      nodes.unshift({ kind: 'group', folderUri, key: PUSH_CHECK_GROUP, label: check.outdated ? l10n.t('Would have blocked CI (changed since the check)') : l10n.t('Would block CI'), count: check.issues.length, issues: check.issues, pushCheck: true });
    }
    // What the service said of the fixes applied since: right after what would block CI.
    const checks = this.shownChecks(folderUri);
    if (checks.length) nodes.splice(check?.issues.length ? 1 : 0, 0, { kind: 'group', folderUri, key: FIX_CHECKS_GROUP, label: l10n.t('Checked Fixes'), count: checks.length, issues: [], fixChecks: true });
    const dismissed = this.dismissed(folderUri);
    if (dismissed.length) {
      nodes.push({ kind: 'group', folderUri, key: DISMISSED_GROUP, label: l10n.t('Dismissed'), count: dismissed.length, dismissed: true, issues: dismissed.sort(compareIssues) });
    }
    // Groups start collapsed when there are many findings: the view then asks only for what is opened.
    this.expandGroups = issues.length <= EXPAND_UP_TO;
    this.shownGroups.set(folderUri, nodes);
    return nodes;
  }

  getTreeItem(node: IssueTreeNode): vscode.TreeItem {
    if (node.kind === 'folder') {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = vscode.ThemeIcon.Folder;
      const project = this.projects?.of(node.folderUri);
      item.description = `${plural(this.visibleIssues(node.folderUri).length, l10n.t('{0} issue'), l10n.t('{0} issues'))}${project ? l10n.t(' · project {0}', project.name) : ''}`;
      if (project) item.tooltip = `${node.name}: ${describeProject(project)}`;
      item.accessibilityInformation = { label: l10n.t('Folder {0}, {1}', node.name, item.description) };
      item.id = `folder:${node.folderUri}`;
      return item;
    }
    if (node.kind === 'group') return node.fixChecks ? fixChecksGroupItem(node.folderUri, node.count) : this.groupItem(node);
    if (node.kind === 'fixCheck') {
      const c = this.fixChecks?.get(node.checkId);
      return c ? fixCheckItem(c) : new vscode.TreeItem('');
    }
    return this.issueItem(node);
  }

  private groupItem(node: Extract<IssueTreeNode, { kind: 'group' }>): vscode.TreeItem {
    const by = this.groupBy;
    if (node.pushCheck) {
      const check = this.store.pushCheckOf(node.folderUri);
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${node.folderUri}:push-check`;
      item.description = `${node.count} · ${check?.what === 'staged' ? l10n.t('staged changes') : l10n.t('branch before push')}`;
      item.iconPath = new vscode.ThemeIcon(check?.outdated ? 'history' : 'error');
      item.tooltip = check ? verdictText(check.verdict) : undefined;
      item.contextValue = 'group.pushCheck';
      item.accessibilityInformation = { label: `${node.label}, ${plural(node.count, l10n.t('{0} finding'), l10n.t('{0} findings'))} in ${item.description.split(' · ')[1]}` };
      return item;
    }
    if (node.dismissed) {
      const item = new vscode.TreeItem('Dismissed', vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `group:${node.folderUri}:dismissed`;
      item.description = String(node.count);
      item.iconPath = new vscode.ThemeIcon('eye-closed');
      item.tooltip = l10n.t('{0} dismissed in this workspace only. The service has no operation for this; they stay open there. Restore one from its context menu (Shift+F10) or its details page.', plural(node.count, l10n.t('{0} finding'), l10n.t('{0} findings')));
      item.contextValue = 'group.dismissed';
      item.accessibilityInformation = { label: l10n.t('Dismissed, {0} set aside in this workspace only', plural(node.count, l10n.t('{0} finding'), l10n.t('{0} findings'))) };
      return item;
    }
    const item = new vscode.TreeItem('', this.expandGroups ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `group:${node.folderUri}:${by}:${node.key}`;
    item.contextValue = 'group';
    if (by === 'file') {
      const dir = path.posix.dirname(node.key);
      item.label = path.posix.basename(node.key);
      item.resourceUri = fileUri(node.folderUri, node.key);
      item.description = `${node.count}${dir === '.' ? '' : ` · ${dir}`}`;
      item.tooltip = `${node.key}: ${plural(node.count, l10n.t('{0} issue'), l10n.t('{0} issues'))}`;
    } else {
      item.label = by === 'urgency' ? urgencyLabel(node.label) : node.label;
      item.description = String(node.count);
      item.tooltip = `${item.label}: ${plural(node.count, l10n.t('{0} issue'), l10n.t('{0} issues'))}`;
      if (by === 'urgency') item.iconPath = SEVERITY_ICON[severityFromUrgency(node.key)];
    }
    // The group and its count, not its tooltip.
    item.accessibilityInformation = { label: `${by === 'file' ? node.key : item.label}, ${plural(node.count, l10n.t('{0} issue'), l10n.t('{0} issues'))}` };
    return item;
  }

  private issueItem(node: Extract<IssueTreeNode, { kind: 'issue' }>): vscode.TreeItem {
    const { issue } = node;
    const dismissal = this.store.dismissalOf(issue);
    const note = this.fixChecks?.noteFor(node.folderUri, issue.id);
    const row = findingRow(issue, { groupBy: this.groupBy, pushCheck: node.pushCheck, dismissed: dismissal && DISMISS_LABELS[dismissal.reason], note: note && fixNoteText(note.role, note.check) });
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = [node.underCheck !== undefined ? ['under-check', node.underCheck].join('-') : node.pushCheck ? 'push-check' : 'issue', node.folderUri, issue.id].join(':');
    item.description = row.description;
    item.iconPath = dismissal ? new vscode.ThemeIcon('eye-closed')
      : issue.stale ? new vscode.ThemeIcon('history')
        : issue.falsePositive ? new vscode.ThemeIcon('circle-slash') : SEVERITY_ICON[severityFromUrgency(issue.urgency)];
    // The tooltip (a rendered summary) is made when the item is hovered: resolveTreeItem.
    // What the row shows, in words: a screen reader hears the marks a sighted user sees.
    item.accessibilityInformation = { label: row.accessibleLabel };
    item.contextValue = dismissal ? 'issue.dismissed' : rowContext(issue);
    item.command = issue.stale
      ? { command: 'codeScanner.showDetails', title: l10n.t('Show Details'), arguments: [{ folderUri: node.folderUri, issueId: issue.id }] }
      : {
        command: 'vscode.open',
        title: l10n.t('Open'),
        arguments: [fileUri(node.folderUri, issue.path), { selection: issueRange(issue), preview: true } satisfies vscode.TextDocumentShowOptions],
      };
    return item;
  }

  resolveTreeItem(item: vscode.TreeItem, node: IssueTreeNode): vscode.TreeItem {
    if (node.kind === 'issue' && item.tooltip === undefined) {
      const note = this.fixChecks?.noteFor(node.folderUri, node.issue.id);
      item.tooltip = findingMarkdown(node.issue, { dismissal: this.store.dismissalOf(node.issue), fixNote: note && fixNoteText(note.role, note.check) });
    }
    return item;
  }

  getParent(node: IssueTreeNode): IssueTreeNode | undefined {
    if (node.kind === 'folder') return undefined;
    const roots = this.getChildren();
    const folderNode = roots.some((n) => n.kind === 'folder') ? roots.find((n) => n.folderUri === node.folderUri) : undefined;
    if (node.kind === 'group') return folderNode;
    const checksGroup = () => this.getChildren(folderNode).find((g) => g.kind === 'group' && g.fixChecks);
    if (node.kind === 'fixCheck') return checksGroup();
    if (node.underCheck !== undefined) return { kind: 'fixCheck', folderUri: node.folderUri, checkId: node.underCheck };
    return this.getChildren(folderNode).find((g) => g.kind === 'group' && !!g.pushCheck === !!node.pushCheck && g.issues.some((i) => i.id === node.issueId));
  }
}

/** What a finding row's menu offers: the service's fix, a dependency's upgrade, its fixed version to copy, or neither. */
function rowContext(issue: StoredIssue): string {
  if (isFixable(issue)) return isUpgrade(issue) ? 'issue.upgrade' : 'issue.fixable';
  return issue.dependency?.fixVersion ? 'issue.fixVersion' : 'issue';
}
