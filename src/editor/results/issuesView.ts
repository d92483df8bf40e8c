// The Quality Issues view as a person uses it: the tree view itself, its description and
// badge, the commands of its title and rows (group, filter, expand, Copy Details), and
// the keyboard's focused row. The tree's contents are IssuesTreeProvider's (issuesTree.ts).
import * as vscode from 'vscode';
import { FINDING_KINDS, capitalize, describeViewFilter, isFindingKind, kindLabel, urgencyLabel, isViewFiltered, type GroupBy, type StoredIssue } from '../../core/issues';
import { groupByArg, issueRefArg, stringArg, stringListArg } from '../commands/args';
import type { SomeCommandHandlers } from '../commands/signatures';
import type { FeatureCtx } from '../controllers';
import { findingText } from '../review/findingText';
import type { ResultsStore } from './resultsStore';
import { describeUser } from '../account/user';
import { folderSummaries, summaryNotes, waitingUploadsNote } from './resultsSummary';
import { hideFalsePositives } from '../settings';
import { SIGNED_OUT_NOTE } from '../../core/results';
import { IssuesTreeProvider, type IssueTreeNode } from './issuesTree';
import { l10n, plural } from '../../core/text/l10n';

type ClassificationItem = vscode.QuickPickItem & { value: string };

/**
 * The classifications of the findings, most findings first, to pick one; what is typed
 * becomes the last entry (part of an id or a name, as the filter matches). Undefined when
 * dismissed; '' shows every classification again.
 */
async function pickClassification(store: ResultsStore): Promise<string | undefined> {
  const counts = new Map<string, { name: string; n: number }>();
  for (const l of store.all()) {
    const c = counts.get(l.issue.classificationId);
    if (c) c.n++;
    else counts.set(l.issue.classificationId, { name: l.issue.classificationName, n: 1 });
  }
  const present: ClassificationItem[] = [...counts].sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    .map(([id, c]) => ({ label: id, description: c.name === id ? undefined : c.name, detail: plural(c.n, l10n.t('{0} finding'), l10n.t('{0} findings')), value: id }));
  const current = store.classificationFilter;
  const clear: ClassificationItem = { label: l10n.t('Every classification'), description: current ? l10n.t('now: {0}', current) : l10n.t('shown now'), value: '' };
  const pick = vscode.window.createQuickPick<ClassificationItem>();
  pick.title = l10n.t('Filter quality issues by classification');
  pick.placeholder = l10n.t('Pick a classification, or type part of an id or a name (Problems keeps every finding)');
  pick.matchOnDescription = true;
  const typed = (text: string): ClassificationItem => ({ label: l10n.t('Filter by "{0}"', text), description: l10n.t('part of a classification id or name'), value: text, alwaysShow: true });
  const items = (text: string) => [clear, ...present, ...(text.trim() ? [typed(text.trim())] : [])];
  pick.items = items('');
  pick.onDidChangeValue((text) => { pick.items = items(text); });
  try {
    return await new Promise<string | undefined>((resolve) => {
      pick.onDidAccept(() => resolve(pick.selectedItems[0]?.value));
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
  } finally {
    pick.dispose();
  }
}

/** Plain text of a finding for the clipboard. */
export function issueDetails(issue: StoredIssue, folderName?: string): string {
  return findingText(issue, folderName);
}

const URGENCIES = ['critical', 'high', 'medium', 'low'];

const nodeKey = (n: IssueTreeNode) => (n.kind === 'issue' ? `issue:${n.folderUri}:${n.issueId}` : n.kind === 'group' ? `group:${n.folderUri}:${n.key}` : `folder:${n.folderUri}`);

/**
 * The row that has keyboard focus. The arrow keys move focus, not the selection, and the API
 * tells only the selection: toggling the focused row's selection (the list's own command)
 * shows which row it is, and toggling again puts the selection back as it was.
 */
async function focusedRow(view: vscode.TreeView<IssueTreeNode>): Promise<IssueTreeNode | undefined> {
  const before = [...view.selection];
  const toggled = (): Promise<readonly IssueTreeNode[] | undefined> => new Promise((resolve) => {
    const sub = view.onDidChangeSelection((e) => { sub.dispose(); clearTimeout(timer); resolve(e.selection); });
    const timer = setTimeout(() => { sub.dispose(); resolve(undefined); }, 1000);
    void vscode.commands.executeCommand('list.toggleSelection');
  });
  const after = await toggled();
  if (!after) return before[0];
  const had = new Set(before.map(nodeKey));
  const has = new Set(after.map(nodeKey));
  const row = after.find((n) => !had.has(nodeKey(n))) ?? before.find((n) => !has.has(nodeKey(n)));
  await toggled();
  return row ?? before[0];
}

/** The Quality Issues view, its filters and grouping, and Copy Details. */
export function issuesTreeFeature({ extension: context, store, session, notifier, projects, uploads, scans, fixChecks }: FeatureCtx) {
  const provider = new IssuesTreeProvider(store, context.workspaceState, () => session.user && { id: session.user.id, email: session.user.email || undefined }, projects, fixChecks);
  const view = vscode.window.createTreeView('codeScanner.issues', { treeDataProvider: provider, showCollapseAll: true });
  provider.attach(view);

  const describe = () => {
    // One folder: its project beside who is signed in (several: each folder node names its own).
    const folders = vscode.workspace.workspaceFolders ?? [];
    const project = folders.length === 1 ? projects.of(folders[0].uri.toString()) : undefined;
    const who = session.tokenRejected ? l10n.t('sign-in expired: sign in again') : describeUser(session.user);
    // "Filtered" in the title bar too: the filter buttons show no on/off state of their own.
    view.description = [isViewFiltered(provider.filter) ? l10n.t('Filtered') : '', project ? l10n.t('Project: {0}', project.name) : '', who].filter(Boolean).join(' · ');
    // The badge shows what Problems and the status bar show; view filters narrow the list only.
    const shown = store.shownCount(hideFalsePositives());
    view.badge = shown ? { value: shown, tooltip: plural(shown, l10n.t('{0} quality issue'), l10n.t('{0} quality issues')) } : undefined;
    const f = provider.filter;
    const { listed, undismissed, stale } = provider.tally();
    const parts: string[] = [];
    const summaries = folderSummaries(store, hideFalsePositives());
    if (isViewFiltered(f)) parts.push(l10n.t('Showing {0} of {1}: {2}.{3}', listed, undismissed, describeViewFilter(f), listed ? '' : l10n.t(' No issue matches.')));
    else if (store.hasResults() && !listed) {
      // Only from completed scans: a cancelled or failed one never empties the view.
      const found = summaries.filter((s) => s.results && !s.notes.length).map((s) => `${summaries.length > 1 ? `${s.name}: ` : ''}${capitalize(s.results!)}.`);
      parts.push(...(found.length ? found : [l10n.t('No quality issues found in the last completed scan.')]));
    }
    // What happened since the findings' scan: said where the findings are (dated), never instead of them.
    parts.push(...summaryNotes(summaries, true));
    if (store.hasResults() && !session.isSignedIn()) parts.push(SIGNED_OUT_NOTE());
    const waiting = scans.state ? undefined : waitingUploadsNote(uploads.waiting());
    if (waiting) parts.push(waiting);
    if (stale) parts.push(plural(stale, l10n.t('{0} finding could not be placed because the code changed since the scan; rescan to place it.'), l10n.t('{0} findings could not be placed because the code changed since the scan; rescan to place them.')));
    const unreadable = store.unreadableCount();
    if (unreadable) parts.push(plural(unreadable, l10n.t('{0} finding the service sent could not be read and is not shown (see Show Log).'), l10n.t('{0} findings the service sent could not be read and are not shown (see Show Log).')));
    view.message = parts.join(' ') || undefined;
  };
  describe();

  context.subscriptions.push(
    provider,
    view,
    store.onDidChange((e) => {
      if (e.moved && e.uris) {
        provider.refreshFiles(e.uris);
        return;
      }
      // The view's description follows from the refresh (onDidChangeTreeData below): once.
      provider.refresh();
    }),
    session.onDidChangeSession(() => { provider.refresh(); describe(); }),
    uploads.onDidChangeWaiting(describe),
    scans.onDidChangeState(() => { if (!scans.state) describe(); }),
    projects.onDidChange(() => provider.refresh()),
    provider.onDidChangeTreeData((node) => { if (!node) describe(); }),
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('codeScanner.hideFalsePositives')) describe(); }),
  );
  const handlers = {
    'codeScanner.groupBy': async (arg) => {
      const options: { label: string; by: GroupBy }[] = [
        { label: l10n.t('File'), by: 'file' }, { label: l10n.t('Urgency'), by: 'urgency' }, { label: l10n.t('Classification'), by: 'classification' },
        { label: l10n.t('Policy'), by: 'policy' }, { label: l10n.t('Kind'), by: 'kind' },
      ];
      const by = groupByArg(arg)
        ?? (await vscode.window.showQuickPick(options.map((o) => ({ ...o, picked: o.by === provider.groupBy, description: o.by === provider.groupBy ? 'current' : undefined })), { title: l10n.t('Group quality issues by') }))?.by;
      if (!by) return;
      await provider.setGroupBy(by);
      // The view starts at its top again: the most urgent group first, not the old scroll position.
      const top = provider.getChildren()[0];
      if (top && view.visible) await Promise.resolve(view.reveal(top, { select: false, focus: false })).catch(() => undefined);
    },
    'codeScanner.filterByClassification': async (arg) => {
      const value = stringArg(arg) ?? await pickClassification(store);
      if (value === undefined) return;
      await store.setClassificationFilter(value);
      provider.refresh();
    },
    'codeScanner.filterByStatus': async (arg) => {
      let statuses = stringListArg(arg);
      if (!statuses) {
        const known = new Set([...store.all().map((l) => l.issue.status), ...provider.statusFilter]);
        const picked = await vscode.window.showQuickPick(
          [...known].sort().map((s) => ({ label: s, picked: provider.statusFilter.includes(s) })),
          { title: l10n.t('Show quality issues with status'), canPickMany: true, placeHolder: l10n.t('Pick none to show every status') },
        );
        statuses = picked?.map((p) => p.label);
      }
      if (statuses) await provider.setStatusFilter(statuses);
    },
    'codeScanner.filterByUrgency': async (arg) => {
      let urgencies = stringListArg(arg);
      if (!urgencies) {
        const current = provider.filter.urgencies ?? [];
        const picked = await vscode.window.showQuickPick(
          URGENCIES.map((u) => ({ label: urgencyLabel(u), value: u, picked: current.includes(u) })),
          { title: l10n.t('Show quality issues of urgency'), canPickMany: true, placeHolder: l10n.t('Pick none to show every urgency') },
        );
        urgencies = picked?.map((p) => p.value);
      }
      if (urgencies) await provider.setUrgencyFilter(urgencies);
    },
    'codeScanner.filterByKind': async (arg) => {
      let kinds = stringListArg(arg)?.filter(isFindingKind);
      if (!kinds) {
        const current = provider.filter.kinds ?? [];
        const picked = await vscode.window.showQuickPick(
          FINDING_KINDS.map((k) => ({ label: kindLabel(k), value: k, picked: current.includes(k) })),
          { title: l10n.t('Show findings of kind'), canPickMany: true, placeHolder: l10n.t('Pick none to show every kind') },
        );
        kinds = picked?.map((p) => p.value);
      }
      if (kinds) await provider.setKindFilter(kinds);
    },
    'codeScanner.toggleReachableOnly': async (arg) => {
      await provider.setToggle('reachable', typeof arg === 'boolean' ? arg : !provider.filter.reachableOnly);
    },
    'codeScanner.toggleNewOnly': async (arg) => {
      await provider.setToggle('new', typeof arg === 'boolean' ? arg : !provider.filter.newOnly);
    },
    'codeScanner.togglePolicyViolationsOnly': async (arg) => {
      await provider.setToggle('policy', typeof arg === 'boolean' ? arg : !provider.filter.policyOnly);
    },
    'codeScanner.toggleAssignedToMe': async (arg) => {
      const on = typeof arg === 'boolean' ? arg : !provider.assignedToMe;
      if (on && !session.user?.email && !session.user?.id) {
        void notifier.warn(l10n.t('Sign in first: "assigned to me" compares with the signed-in user.'));
        return;
      }
      await provider.setToggle('mine', on);
    },
    'codeScanner.clearFilters': () => provider.clearFilters(),
    'codeScanner.copyDetails': async (arg) => {
      const ref = issueRefArg(arg);
      const located = ref ? store.get(ref) : undefined;
      if (!located) return;
      const folderName = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(located.folderUri))?.name;
      await vscode.env.clipboard.writeText(issueDetails(located.issue, folderName));
      notifier.done(l10n.t('Issue details copied.'));
    },
    'codeScanner.showIssues': () => Promise.resolve(vscode.commands.executeCommand('codeScanner.issues.focus')),
    // After Dismiss or Restore from the view, the finding keeps the focus in its new group.
    'codeScanner.revealInTree': async (arg) => {
      const ref = issueRefArg(arg);
      const located = ref && store.get(ref);
      if (!located || !view.visible) return false;
      const node: IssueTreeNode = { kind: 'issue', folderUri: located.folderUri, issueId: located.issue.id, issue: located.issue };
      try {
        await view.reveal(node, { select: true, focus: true, expand: false });
        return true;
      } catch {
        return false; // filtered out of the view: nothing to focus
      }
    },
    // Ctrl+Enter on a row of the view: its details, as the inline (i) button gives them.
    'codeScanner.showSelectedDetails': async () => {
      const node = await focusedRow(view);
      if (node?.kind !== 'issue') return false;
      return Boolean(await vscode.commands.executeCommand('codeScanner.showDetails', { folderUri: node.folderUri, issueId: node.issueId }));
    },
  } satisfies SomeCommandHandlers;
  return { provider, commands: handlers };
}
