// A full scan of the fixture workspace: the service's findings land in the one results
// store, the Quality Issues tree (grouped, counted, filtered) and the Problems panel, and
// the status bar follows the scan.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { plural } from '../../src/core/text/l10n';
import type { IssueTreeNode } from '../../src/editor/results/issuesTree';
import { adminScan, api, diagnosticsUnder, fileUri, fixtureIssues, ourDiagnostics, scan, serviceIssues, setAnswerMode, signIn, treeRootsOf, waitFor, workspaceRoot, FAST, type WireIssue } from './helpers';

const SEVERITY: Record<string, vscode.DiagnosticSeverity> = {
  critical: vscode.DiagnosticSeverity.Error,
  high: vscode.DiagnosticSeverity.Error,
  medium: vscode.DiagnosticSeverity.Warning,
  low: vscode.DiagnosticSeverity.Information,
};

/** The full word for an urgency as the service may spell it (decisions.md: `CR`, `hi`, …). */
const URGENCY_WORD: Record<string, string> = { cr: 'critical', hi: 'high', me: 'medium', lo: 'low' };
function urgencyWord(u: string): string {
  return URGENCY_WORD[u.toLowerCase()] ?? u.toLowerCase();
}

/** A test file with console.log: the service's auto-triage calls that a false positive. */
const FP_FILE = 'src/format.test.js';

/** The fixture folder's issue leaves (the second folder of the workspace has its own). */
async function leaves(): Promise<Extract<IssueTreeNode, { kind: 'issue' }>[]> {
  const a = await api();
  const { issuesTree } = a;
  const out: Extract<IssueTreeNode, { kind: 'issue' }>[] = [];
  const walk = (nodes: IssueTreeNode[]) => {
    for (const n of nodes) {
      if (n.kind === 'issue') out.push(n);
      else walk(issuesTree.getChildren(n));
    }
  };
  walk(treeRootsOf(a));
  return out;
}

// The same review, once against answers shaped like the spec's examples and once against
// the shapes real answers show (short urgency codes, null fields, fixes without ids, ...).
for (const shapes of ['seed', 'real'] as const) suite(`editor: scanning and results (${shapes} answer shapes)`, () => {
  let scanId: string;
  let expected: WireIssue[];

  suiteSetup(async () => {
    await api();
    await setAnswerMode({ shapes });
    await signIn();
    fs.writeFileSync(path.join(workspaceRoot(), ...FP_FILE.split('/')), 'console.log("formatting test");\n');
  });

  suiteTeardown(async () => {
    await setAnswerMode({ shapes: 'seed' });
    await vscode.workspace.getConfiguration('codeScanner').update('hideFalsePositives', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('codeScanner.groupBy', 'file');
  });

  test('the status bar offers Scan, shows progress while scanning and the issue count after', async () => {
    const a = await api();
    await vscode.commands.executeCommand('codeScanner.clearResults', { confirmed: true });
    assert.deepStrictEqual(a.issues(), []);
    assert.strictEqual(vscode.languages.getDiagnostics().flatMap(([, ds]) => ds).filter((d) => d.source === 'Code Scanner').length, 0, 'Clear Results empties Problems');
    assert.deepStrictEqual(a.issuesTree.getChildren(), []);
    assert.strictEqual(a.statusBar.text, '$(shield) Scan');
    assert.strictEqual(a.statusBar.command, 'codeScanner.scanWorkspace');
    const seen = new Set<string>();
    let done = false;
    const running = Promise.resolve(vscode.commands.executeCommand('codeScanner.scanWorkspace', FAST)).finally(() => { done = true; });
    while (!done) {
      seen.add(a.statusBar.text);
      await new Promise((r) => setTimeout(r, 10));
    }
    const summary = await running as { folders: { scanId?: string }[] } | undefined;
    assert.ok(summary?.folders[0]?.scanId, 'the scan completed');
    assert.ok([...seen].some((t) => /^\$\(sync~spin\) Scanning/.test(t)), `saw ${[...seen].join(' | ')}`);
    assert.ok([...seen].some((t) => /^\$\(sync~spin\) Scanning \d+%$/.test(t)), `a percentage while uploading: ${[...seen].join(' | ')}`);
    const count = a.issues().length;
    assert.strictEqual(a.statusBar.text, `$(warning) ${plural(count, '{0} issue', '{0} issues')}`);
    assert.strictEqual(a.statusBar.command, 'codeScanner.showIssues');
  });

  test('a full scan uploads the workspace and puts every finding of the service in the store', async () => {
    const a = await api();
    scanId = await scan('codeScanner.scanWorkspace');
    expected = await serviceIssues(scanId);
    assert.ok(expected.length >= 5, `the fixture has findings (got ${expected.length})`);
    const record = await adminScan(scanId);
    assert.strictEqual(record.partial, false);
    assert.strictEqual(record.clientSource, 'vscode');
    assert.ok(record.files.includes('src/db.ts') && record.files.includes('scripts/report.py'), record.files.join(', '));
    assert.ok(!record.files.some((f) => f.startsWith('.git/')), 'no git internals in the archive');
    assert.deepStrictEqual(fixtureIssues(a).map((l) => l.issue.id).sort(), expected.map((i) => String(i.id)).sort());
  });

  test('every finding is a diagnostic at its line with severity from urgency, classification as code', () => {
    for (const issue of expected) {
      const diags = ourDiagnostics(fileUri(issue.location.file.path));
      const d = diags.find((x) => x.code === issue.code && x.range.start.line === issue.location.line_number - 1);
      assert.ok(d, `no diagnostic for ${issue.classification.id} at ${issue.location.file.path}:${issue.location.line_number}`);
      assert.ok(d.message.includes(issue.classification.name), d.message);
      const fp = issue.auto_triage?.false_positive_detection?.status === 'false_positive';
      if (fp) {
        assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Information);
        assert.match(d.message, /^Likely false positive: /);
      } else {
        assert.strictEqual(d.severity, SEVERITY[urgencyWord(issue.urgency)] ?? vscode.DiagnosticSeverity.Warning, `${issue.urgency} → ${d.severity}`);
      }
    }
    assert.strictEqual(diagnosticsUnder().length, expected.length, 'one diagnostic per finding');
  });

  test('false positives are marked, and hidden from Problems when hideFalsePositives is on', async () => {
    const fps = expected.filter((i) => i.auto_triage?.false_positive_detection?.status === 'false_positive');
    assert.ok(fps.some((i) => i.location.file.path === FP_FILE), 'the console.log in a test file is a false positive');
    await vscode.workspace.getConfiguration('codeScanner').update('hideFalsePositives', true, vscode.ConfigurationTarget.Global);
    await waitFor('false positives to leave Problems', () => ourDiagnostics(fileUri(FP_FILE)).length === 0);
    const remaining = diagnosticsUnder().length;
    assert.strictEqual(remaining, expected.length - fps.length);
    await vscode.workspace.getConfiguration('codeScanner').update('hideFalsePositives', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('false positives to come back', () => ourDiagnostics(fileUri(FP_FILE)).length > 0);
  });

  test('the tree groups by file (default) with counts; each issue opens its file at its line', async () => {
    const a = await api();
    const { issuesTree } = a;
    const groups = treeRootsOf(a);
    const byFile = new Map<string, number>();
    for (const i of expected) byFile.set(i.location.file.path, (byFile.get(i.location.file.path) ?? 0) + 1);
    assert.deepStrictEqual(
      groups.map((g) => (g.kind === 'group' ? [g.key, g.count] : [])).sort(),
      [...byFile].sort(),
    );
    const first = groups[0];
    const item = issuesTree.getTreeItem(first);
    assert.ok(String(item.description).startsWith(String(first.kind === 'group' && first.count)));
    const leaf = (await leaves())[0];
    const leafItem = issuesTree.getTreeItem(leaf);
    assert.ok(String(leafItem.description).includes(leaf.issue.classificationId));
    assert.match(String(leafItem.label), /^(Critical|High|Medium|Low) · line \d+$/, 'urgency and line lead the label');
    await vscode.commands.executeCommand(leafItem.command!.command, ...(leafItem.command!.arguments ?? []));
    const editor = await waitFor('the issue to open', () => vscode.window.activeTextEditor?.document.uri.fsPath === fileUri(leaf.issue.path).fsPath && vscode.window.activeTextEditor);
    assert.strictEqual(editor.selection.start.line, leaf.issue.line - 1);
  });

  test('group by urgency and by classification', async () => {
    const a = await api();
    await vscode.commands.executeCommand('codeScanner.groupBy', 'urgency');
    const urgencies = treeRootsOf(a).map((g) => (g.kind === 'group' ? g.key : ''));
    const order = ['critical', 'high', 'medium', 'low'];
    assert.deepStrictEqual(urgencies, [...urgencies].sort((x, y) => order.indexOf(x) - order.indexOf(y)), 'most urgent first');
    assert.deepStrictEqual(new Set(urgencies), new Set(expected.map((i) => urgencyWord(i.urgency))));
    await vscode.commands.executeCommand('codeScanner.groupBy', 'classification');
    const classes = treeRootsOf(a);
    assert.strictEqual(classes.reduce((n, g) => n + (g.kind === 'group' ? g.count : 0), 0), expected.length);
    assert.deepStrictEqual(new Set(classes.map((g) => g.kind === 'group' && g.key)), new Set(expected.map((i) => i.classification.id)));
    await vscode.commands.executeCommand('codeScanner.groupBy', 'file');
  });

  test('view filters narrow the tree only: Problems, squiggles and every count keep all findings', async () => {
    const a = await api();
    const diagnostics = diagnosticsUnder().length;
    const statusText = a.statusBar.text;
    const badge = a.issuesTree.viewBadge;
    await vscode.commands.executeCommand('codeScanner.filterByStatus', ['no-such-status']);
    assert.strictEqual((await leaves()).length, 0);
    await vscode.commands.executeCommand('codeScanner.filterByStatus', []);
    assert.strictEqual((await leaves()).length, expected.length);

    // The classification filter matches as the service does (compared with the service's own answer).
    const cls = expected[0].classification.id;
    const wanted = await serviceIssues(scanId, cls);
    assert.ok(wanted.length < expected.length, 'the filter narrows the results');
    await vscode.commands.executeCommand('codeScanner.filterByClassification', cls);
    assert.deepStrictEqual((await leaves()).map((l) => l.issue.id).sort(), wanted.map((i) => String(i.id)).sort());
    assert.deepStrictEqual(fixtureIssues(a).map((l) => l.issue.id).sort(), expected.map((i) => String(i.id)).sort(), 'the store keeps every finding');
    assert.strictEqual(diagnosticsUnder().length, diagnostics, 'Problems and squiggles keep every finding');
    assert.strictEqual(a.statusBar.text, statusText, 'the status bar count is unchanged');
    assert.deepStrictEqual(a.issuesTree.viewBadge, badge, 'the view badge is unchanged');
    assert.match(a.issuesTree.viewMessage ?? '', new RegExp(`Showing ${wanted.length} of`));
    await vscode.commands.executeCommand('codeScanner.filterByUrgency', ['critical']);
    assert.ok((await leaves()).every((l) => l.issue.urgency === 'critical'));
    assert.strictEqual(diagnosticsUnder().length, diagnostics);
    await vscode.commands.executeCommand('codeScanner.clearFilters');
    assert.strictEqual((await leaves()).length, expected.length);
    assert.strictEqual(a.issuesTree.viewMessage, undefined);
  });

  test('Refresh Results fetches the findings again', async () => {
    const a = await api();
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.refreshResults'), true);
    assert.deepStrictEqual(fixtureIssues(a).map((l) => l.issue.id).sort(), expected.map((i) => String(i.id)).sort());
  });

  test('Copy Details puts the finding on the clipboard', async () => {
    const leaf = (await leaves())[0];
    await vscode.commands.executeCommand('codeScanner.copyDetails', leaf);
    const text = await vscode.env.clipboard.readText();
    assert.ok(text.includes(leaf.issue.classificationId) && text.includes(`${leaf.issue.path}:${leaf.issue.line}`), text);
  });
});
