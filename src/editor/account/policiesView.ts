// The Policies view: the company's policies, newest first, one page at a time with a
// "Load more" node, filtered by status, type and project (the filter is remembered per
// workspace). Expanding a policy shows its details; target policies are marked and can
// be added or removed from the context menu.
import { STATE_KEYS } from '../../core/persist/stateKeys';
import * as vscode from 'vscode';
import type { Policy, ServiceClient } from '../../core/api';
import { Pager, isPageBeyondEnd } from '../../core/account/pager';
import { describeFilter, filterToQuery, isFilterEmpty, parsePolicyFilter, parsePolicyTypes, parseProjectName, type PolicyFilter } from '../../core/account/policyFilter';
import { plural, policyDescription, policyDetailRows, policyState, policyTypes } from '../../core/account/format';
import { askParsed, describeFailure, invalid, reportFailure, type AccountDeps, type Outcome } from './common';
import type { TargetPolicies } from './targetPolicies';
import { DisposableObject } from '../disposable';
import { CONTEXT_KEYS } from '../commands/contextKeys';
import { commandCall, setContext } from '../commands/manager';
import { escapeMarkdown } from '../../core/text/untrusted';
import { l10n } from '../../core/text/l10n';

export const POLICIES_VIEW_ID = 'codeScanner.policies';
const FILTER_KEY = STATE_KEYS.policiesFilter.key;
const PAGE_SIZE = 30; // the service's maximum
/** After the service could not be reached, the view tries again this much later by itself. */
const POLICIES_RETRY_MS = 8_000;

type Node =
  | { kind: 'policy'; policy: Policy }
  | { kind: 'detail'; policy: Policy; label: string; value: string }
  | { kind: 'more' };

/** What the view commands return: the view's state after they ran. */
export interface PoliciesSnapshot {
  filter: PolicyFilter;
  policies: { id: number; name: string; active: boolean | undefined; sourceType: string | undefined; isTarget: boolean }[];
  total: number | undefined;
  hasMore: boolean;
  /** The message the view shows instead of policies (error, empty, ...), if any. */
  message: string | undefined;
}

export class PoliciesView extends DisposableObject implements vscode.TreeDataProvider<Node> {
  private readonly changed = this.own(new vscode.EventEmitter<Node | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<Node>;
  private filter: PolicyFilter;
  private pager: Pager<Policy>;
  private client: ServiceClient | undefined;
  private message: string | undefined;
  /** Source types seen so far, offered as suggestions by the type filter. */
  private knownTypes = new Set<string>();

  constructor(private readonly context: vscode.ExtensionContext, private readonly deps: AccountDeps, private readonly targets: TargetPolicies) {
    super();
    const stored = parsePolicyFilter(context.workspaceState.get(FILTER_KEY));
    this.filter = stored.ok ? stored.value : {};
    this.pager = this.newPager();
    this.view = this.own(vscode.window.createTreeView(POLICIES_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }));
    if (deps.onDidChangeSession) this.own(deps.onDidChangeSession(() => this.reset()));
    this.own(targets.onDidChange(() => this.changed.fire(undefined)));
    this.own({ dispose: () => clearTimeout(this.retryTimer) });
    this.updateChrome();
  }

  private newPager(): Pager<Policy> {
    const query = filterToQuery(this.filter);
    return new Pager<Policy>({
      fetchPage: async (page) => {
        const client = this.client ?? (this.client = await this.deps.getClient());
        if (!client) throw new SignedOut();
        const r = await client.listPolicies({ ...query, page, pageSize: PAGE_SIZE });
        for (const t of policyTypes(r.policies)) this.knownTypes.add(t);
        for (const u of r.unreadable) this.deps.log.warn(`A policy on page ${page} could not be read and is not shown: ${u.reason}`);
        return {
          items: r.policies,
          totalCount: r.pagination?.total_count,
          totalPages: r.pagination?.total_pages,
          mayHaveMore: r.policies.length + r.unreadable.length >= PAGE_SIZE,
        };
      },
      keyOf: (p) => p.id,
      isPastEnd: isPageBeyondEnd,
    });
  }

  private retryTimer: NodeJS.Timeout | undefined;

  private retryLater(): void {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.message !== undefined && !this.isDisposed) void this.refresh();
    }, POLICIES_RETRY_MS);
  }

  /** Forgets what was loaded; the view loads page 1 again when it is next shown. */
  reset(): void {
    this.pager.reset();
    this.pager = this.newPager();
    this.client = undefined;
    this.message = undefined;
    this.updateChrome();
    this.changed.fire(undefined);
  }

  private updateChrome(): void {
    const filterText = describeFilter(this.filter);
    const count = this.pager.total === undefined ? '' : plural(this.pager.total, l10n.t('{0} policy'), l10n.t('{0} policies'));
    this.view.description = [filterText, count].filter(Boolean).join(' — ') || undefined;
    this.view.message = this.message;
    void setContext(CONTEXT_KEYS.policiesFiltered, !isFilterEmpty(this.filter));
  }

  private signedOut(): boolean {
    return this.deps.isSignedIn ? !this.deps.isSignedIn() : false;
  }

  /** Loads the next page into the view (with the view's progress bar); errors become the view message. */
  private async load(all = false): Promise<void> {
    const pager = this.pager;
    try {
      await vscode.window.withProgress({ location: { viewId: POLICIES_VIEW_ID } }, () => (all ? pager.loadAll() : pager.loadNext()));
      if (pager !== this.pager) return;
      this.message = pager.items.length === 0
        ? isFilterEmpty(this.filter)
          ? l10n.t('Your company has no policies yet.')
          : l10n.t('No policies match the filter ({0}).', describeFilter(this.filter))
        : undefined;
    } catch (err) {
      if (pager !== this.pager) return;
      if (err instanceof SignedOut) {
        this.message = undefined; // the welcome content asks to sign in
      } else {
        const f = describeFailure(err, l10n.t('load the policies'));
        this.message = f.message;
        this.deps.log.error(f.message);
        if (f.kind === 'unauthorized') this.deps.notifier.offerSignIn(f.message);
        // The service or the network may come back: try again by itself, without a click.
        if (['network', 'timeout', 'server', 'rate-limited'].includes(f.kind)) this.retryLater();
      }
    }
    this.updateChrome();
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (node) {
      if (node.kind !== 'policy') return [];
      return policyDetailRows(node.policy).map((row) => ({ kind: 'detail', policy: node.policy, label: row.label, value: row.value }));
    }
    if (this.signedOut()) {
      this.message = undefined;
      this.updateChrome();
      return [];
    }
    if (!this.pager.started && !this.pager.loading && this.message === undefined) await this.load();
    else if (this.pager.loading) await this.pager.loadNext().catch(() => undefined);
    const nodes: Node[] = this.pager.items.map((policy) => ({ kind: 'policy', policy }));
    if (this.pager.started && this.pager.hasMore) nodes.push({ kind: 'more' });
    return nodes;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'more') {
      const item = new vscode.TreeItem(l10n.t('Load more ({0} of {1} shown)', this.pager.items.length, this.pager.total ?? '?'));
      item.iconPath = new vscode.ThemeIcon('more');
      item.command = commandCall('codeScanner.policies.loadMore', l10n.t('Load More Policies'));
      item.contextValue = 'policiesLoadMore';
      return item;
    }
    if (node.kind === 'detail') {
      const item = new vscode.TreeItem(node.label);
      item.id = `policy:${node.policy.id}:${node.label}`;
      item.description = node.value;
      item.tooltip = node.value;
      // The field and its value, as the row shows them (not the value alone).
      item.accessibilityInformation = { label: `${node.label}: ${node.value}` };
      item.contextValue = 'policyDetail';
      return item;
    }
    const p = node.policy;
    const targets = this.targets.ids;
    const isTarget = targets.includes(p.id);
    const item = new vscode.TreeItem(p.name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `policy:${p.id}`;
    item.description = policyDescription(p, { isTarget });
    item.tooltip = policyTooltip(p, isTarget);
    const state = policyState(p);
    item.accessibilityInformation = { label: l10n.t('Policy {0}, {1}', p.name, item.description) };
    item.iconPath = isTarget
      ? new vscode.ThemeIcon('target', new vscode.ThemeColor('charts.blue'))
      : new vscode.ThemeIcon(
        state === 'active' ? 'shield' : state === 'unapproved' ? 'shield' : state === 'inactive' ? 'circle-slash' : 'archive',
        state === 'unapproved' ? new vscode.ThemeColor('list.warningForeground') : undefined,
      );
    // Only active policies can be targeted by a scan.
    item.contextValue = isTarget ? 'policy.target' : state === 'active' || state === 'unapproved' ? 'policy' : 'policy.inactive';
    return item;
  }

  snapshot(): PoliciesSnapshot {
    const targets = this.targets.ids;
    return {
      filter: { ...this.filter },
      policies: this.pager.items.map((p) => ({ id: p.id, name: p.name, active: p.active, sourceType: p.source_type, isTarget: targets.includes(p.id) })),
      total: this.pager.total,
      hasMore: this.pager.started && this.pager.hasMore,
      message: this.message,
    };
  }

  // ---- commands

  async refresh(): Promise<PoliciesSnapshot> {
    this.reset();
    if (!this.signedOut()) await this.load();
    this.changed.fire(undefined);
    return this.snapshot();
  }

  async loadMore(arg?: { all?: boolean }): Promise<PoliciesSnapshot> {
    if (!this.pager.started) await this.load();
    if (this.pager.hasMore) await this.load(arg?.all === true);
    this.changed.fire(undefined);
    return this.snapshot();
  }

  private async applyFilter(filter: PolicyFilter): Promise<PoliciesSnapshot> {
    this.filter = filter;
    await this.context.workspaceState.update(FILTER_KEY, isFilterEmpty(filter) ? undefined : filter);
    return this.refresh();
  }

  async clearFilter(): Promise<PoliciesSnapshot> {
    return this.applyFilter({});
  }

  /**
   * With `arg` ({active: true|false|null, types, project}) the filter is replaced without
   * asking; otherwise a quick pick changes one part of it.
   */
  async chooseFilter(arg?: unknown): Promise<Outcome<PoliciesSnapshot>> {
    if (arg !== undefined && arg !== null) {
      const parsed = parsePolicyFilter(arg);
      if (!parsed.ok) return invalid(this.deps, parsed.message);
      return { ok: true, value: await this.applyFilter(parsed.value) };
    }
    const next = await this.askFilter();
    if (!next) return { ok: false, kind: 'cancelled', message: 'Cancelled.' };
    return { ok: true, value: await this.applyFilter(next) };
  }

  private async askFilter(): Promise<PolicyFilter | undefined> {
    const f = this.filter;
    type Item = vscode.QuickPickItem & { apply?: () => Promise<PolicyFilter | undefined> };
    const mark = (on: boolean) => (on ? '$(check) ' : '$(blank) ');
    const items: Item[] = [
      { label: l10n.t('Status'), kind: vscode.QuickPickItemKind.Separator },
      { label: l10n.t('{0}Active and inactive', mark(f.active === undefined)), apply: async () => withoutActive(f) },
      { label: l10n.t('{0}Active only', mark(f.active === true)), apply: async () => ({ ...f, active: true }) },
      { label: l10n.t('{0}Inactive only', mark(f.active === false)), apply: async () => ({ ...f, active: false }) },
      { label: l10n.t('Type and project'), kind: vscode.QuickPickItemKind.Separator },
      { label: l10n.t('$(symbol-enum) Filter by Type…'), description: f.types?.join(', ') ?? l10n.t('all types'), apply: () => this.askTypes(f) },
      { label: l10n.t('$(project) Filter by Project…'), description: f.project ?? l10n.t('all projects'), apply: () => this.askProject(f) },
    ];
    if (!isFilterEmpty(f)) items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: l10n.t('$(clear-all) Clear Filter'), apply: async () => ({}) });
    const picked = await vscode.window.showQuickPick(items, { title: l10n.t('Filter Policies'), placeHolder: describeFilter(f) || l10n.t('Showing every policy') });
    return picked?.apply ? picked.apply() : undefined;
  }

  private async askTypes(f: PolicyFilter): Promise<PolicyFilter | undefined> {
    const known = [...this.knownTypes].sort();
    const types = await askParsed({
      title: l10n.t('Filter Policies by Type'),
      prompt: l10n.t('Policy types separated by commas; leave empty for all types.{0}', known.length ? l10n.t(' Seen so far: {0}.', known.join(', ')) : ''),
      placeHolder: known.length ? known.join(', ') : 'e.g. Web',
      value: f.types?.join(', ') ?? '',
      ignoreFocusOut: false,
    }, parsePolicyTypes);
    if (types === undefined) return undefined;
    const next: PolicyFilter = { ...f };
    if (types.value.length) next.types = types.value; else delete next.types;
    return next;
  }

  private async askProject(f: PolicyFilter): Promise<PolicyFilter | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.name;
    const project = await askParsed({
      title: l10n.t('Filter Policies by Project'),
      prompt: l10n.t('Project name; company-wide policies are always included. Leave empty for all projects.'),
      placeHolder: folder ? `e.g. ${folder}` : l10n.t('project name'),
      value: f.project ?? '',
      ignoreFocusOut: false,
    }, parseProjectName);
    if (project === undefined) return undefined;
    const next: PolicyFilter = { ...f };
    if (project.value) next.project = project.value; else delete next.project;
    return next;
  }

  /** Context-menu action, or `{policyId}` from automation: adds or removes one target policy. */
  async setTarget(target: unknown, on: boolean): Promise<Outcome<number[]>> {
    const id = policyIdOf(target);
    if (id === undefined) return invalid(this.deps, l10n.t('Choose a policy in the Policies view.'));
    const policy = this.pager.items.find((p) => p.id === id);
    if (on && (!policy || !policy.active || policy.archived)) {
      return invalid(this.deps, l10n.t('Policy #{0} is not an active policy listed in the Policies view, so scans cannot target it.', id));
    }
    const current = this.targets.ids;
    const next = on ? (current.includes(id) ? current : [...current, id]) : current.filter((x) => x !== id);
    try {
      await this.targets.set(next);
    } catch (err) {
      return reportFailure(err, l10n.t('save the target policies'), this.deps);
    }
    const name = policy?.name ?? `#${id}`;
    this.deps.notifier.done(on ? l10n.t('Scans of this workspace now check "{0}".', name) : l10n.t('Scans of this workspace no longer check "{0}".', name));
    return { ok: true, value: next };
  }
}

class SignedOut extends Error {}

/** The policy of a tree node (context menu) or of `{policyId}` (automation). */
function policyIdOf(target: unknown): number | undefined {
  if (!target || typeof target !== 'object') return undefined;
  const t = target as { kind?: unknown; policy?: { id?: unknown }; policyId?: unknown };
  const id = (t.kind === 'policy' || t.kind === 'detail') ? t.policy?.id : t.policyId;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function withoutActive(f: PolicyFilter): PolicyFilter {
  const { active: _ignored, ...rest } = f;
  return rest;
}

function policyTooltip(p: Policy, isTarget: boolean): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${escapeMarkdown(p.name)}**`);
  if (isTarget) md.appendMarkdown(l10n.t(' — _target policy of this workspace_'));
  md.appendMarkdown('\n\n');
  if (p.description) md.appendMarkdown(`${escapeMarkdown(p.description)}\n\n`);
  if (p.guidance_text) md.appendMarkdown(l10n.t('_Guidance:_ {0}', escapeMarkdown(p.guidance_text)) + '\n\n');
  // The description is the first row, shown above already.
  for (const row of policyDetailRows(p).slice(p.description ? 1 : 0)) {
    md.appendMarkdown(`- ${row.label}: ${escapeMarkdown(row.value)}\n`);
  }
  return md;
}
