// What is new, the company's policies on each finding, and Fix with Chat, in the real
// editor against the reference service: a second full scan marks exactly what it added, the
// "new only" filter shows only that; an active policy of the folder's project shows with its
// guidance while an inactive or another project's does not; Fix with Chat hands over a
// fenced, bounded prompt (copied, and said, where no chat model is installed).
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { ScanSummary } from '../../src/editor/scan/scanController';
import { FAST, adminPolicies, api, closeAllEditors, fileUri, fixtureIssues, folderUriOf, revert, treeRootsOf, waitFor, workspaceRoot } from './helpers';

async function scanWorkspace(): Promise<ScanSummary> {
  const summary = await vscode.commands.executeCommand<ScanSummary | undefined>('codeScanner.scanWorkspace', FAST);
  assert.ok(summary && !summary.error, JSON.stringify(summary));
  return summary;
}

function hoverText(hovers: vscode.Hover[]): string {
  return hovers.flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')).join('\n').replace(/\\(.)/g, '$1');
}

suite('editor: what is new, policies and Fix with Chat', () => {
  const pricing = 'src/pricing.js';
  let original = '';
  let policyIds: number[] = [];

  suiteSetup(async () => {
    await api();
    await vscode.commands.executeCommand('codeScanner.signIn', { token: process.env.CODE_SCANNER_TEST_TOKEN });
    original = fs.readFileSync(fileUri(pricing).fsPath, 'utf8');
  });

  suiteTeardown(async () => {
    fs.writeFileSync(fileUri(pricing).fsPath, original);
    // An open document follows the disk a moment later; the next scan reads the open text.
    const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === fileUri(pricing).fsPath);
    if (open) await waitFor('the open document to follow the disk', () => open.getText() === original, 10_000).catch(() => revert(open.uri));
    if (policyIds.length) await adminPolicies({ remove: policyIds });
    const a = await api();
    await a.refreshPolicyMatches();
    await vscode.commands.executeCommand('codeScanner.toggleNewOnly', false);
    await vscode.commands.executeCommand('codeScanner.togglePolicyViolationsOnly', false);
    await vscode.commands.executeCommand('codeScanner.groupBy', 'file');
    await closeAllEditors();
  });

  test('a second full scan marks exactly the findings it added as new; the filter, hover, Details and summary say so', async function () {
    this.timeout(60_000);
    const a = await api();
    await scanWorkspace();
    await scanWorkspace();
    assert.deepStrictEqual(fixtureIssues(a).filter((l) => l.issue.isNew).map((l) => l.issue.id), [], 'the same findings again: nothing new');
    // A new eval on a line of its own: the service's rules find it.
    const lines = original.split('\n');
    lines.splice(3, 0, 'const rule = eval(process.env.PRICE_RULE);');
    fs.writeFileSync(fileUri(pricing).fsPath, lines.join('\n'));
    const seq = a.notifications().at(-1)?.seq ?? 0;
    await scanWorkspace();
    const fresh = fixtureIssues(a).filter((l) => l.issue.isNew);
    assert.ok(fresh.length >= 1, 'the added eval is new');
    for (const l of fresh) assert.ok(l.issue.path === pricing && l.issue.line === 4, `only the added line is new: ${l.issue.path}:${l.issue.line}`);
    const atLine = fixtureIssues(a).filter((l) => l.issue.path === pricing && l.issue.line === 4);
    assert.deepStrictEqual(fresh.map((l) => l.issue.id).sort(), atLine.map((l) => l.issue.id).sort(), 'every finding of the added line is new');
    const said = a.notifications(seq).map((n) => n.text).join('\n');
    assert.match(said, new RegExp(`${fresh.length} new`), said);

    await vscode.commands.executeCommand('codeScanner.toggleNewOnly', true);
    const folderUri = folderUriOf(workspaceRoot());
    assert.deepStrictEqual(a.issuesTree.visibleIssues(folderUri).map((i) => i.id).sort(), fresh.map((l) => l.issue.id).sort());
    const row = a.issuesTree.getTreeItem(a.issuesTree.getChildren(treeRootsOf(a)[0]).find((n) => n.kind === 'issue')!);
    assert.match(String(row.description), /\bnew\b/);
    assert.match(row.accessibilityInformation?.label ?? '', /\bnew\b/, 'a screen reader hears it too');
    await vscode.commands.executeCommand('codeScanner.toggleNewOnly', false);

    const l = fresh[0]!;
    const hover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', l.uri, l.issue.range!.start));
    assert.match(hover, /New: not found before the latest full scan/);
    assert.ok(await vscode.commands.executeCommand('codeScanner.showDetails', { folderUri: l.folderUri, issueId: l.issue.id }));
    assert.match(a.details()!.html, /not found before the latest full scan/);

    // A second line that reads like a known finding's is new too: one old finding each.
    const withDebugger = fs.readFileSync(fileUri(pricing).fsPath, 'utf8').split('\n');
    const at = withDebugger.findIndex((t) => t.trim() === 'debugger;');
    assert.ok(at >= 0, 'the fixture has a debugger statement');
    withDebugger.splice(at + 1, 0, withDebugger[at]!);
    fs.writeFileSync(fileUri(pricing).fsPath, withDebugger.join('\n'));
    await scanWorkspace();
    const debuggers = fixtureIssues(a).filter((x) => x.issue.path === pricing && x.issue.classificationId === 'CWE-489').sort((x, y) => x.issue.line - y.issue.line);
    assert.deepStrictEqual(debuggers.map((x) => [x.issue.line, !!x.issue.isNew]), [[at + 1, false], [at + 2, true]]);
  });

  test('an active policy of the folder\'s project that lists the finding\'s CWE shows with its guidance; an inactive or another project\'s does not', async function () {
    this.timeout(60_000);
    const a = await api();
    const summary = await scanWorkspace();
    const project = summary.folders.find((f) => f.folder === vscode.workspace.getWorkspaceFolder(fileUri(pricing))?.name)?.project;
    assert.ok(project, JSON.stringify(summary.folders));
    policyIds = await adminPolicies({
      add: [
        { name: 'No eval in this project', cwes: ['CWE-95'], projects: [project], guidance_text: 'Parse data with JSON.parse; never evaluate input.' },
        { name: 'Retired eval rule', cwes: ['CWE-95'], projects: [project], active: false, guidance_text: 'retired' },
        { name: 'Another team\'s eval rule', cwes: ['CWE-95'], projects: ['someone-elses-project'], guidance_text: 'not yours' },
      ],
    });
    assert.ok((await a.refreshPolicyMatches())! >= 1);
    const evalFinding = fixtureIssues(a).find((l) => l.issue.path === 'src/server.js' && l.issue.classificationId === 'CWE-95');
    assert.ok(evalFinding, 'the eval finding');
    assert.deepStrictEqual(evalFinding.issue.policies?.map((p) => p.name), ['No eval in this project']);
    assert.ok(await vscode.commands.executeCommand('codeScanner.showDetails', { folderUri: evalFinding.folderUri, issueId: evalFinding.issue.id }));
    const html = a.details()!.html;
    assert.match(html, /Violates policy/);
    assert.match(html, /No eval in this project/);
    assert.match(html, /Parse data with JSON\.parse; never evaluate input\./);
    assert.ok(!/Retired eval rule|Another team/.test(html), 'an inactive or another project\'s policy is not shown');
    const hover = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', evalFinding.uri, evalFinding.issue.range!.start));
    assert.match(hover, /Violates policy: No eval in this project/);

    await vscode.commands.executeCommand('codeScanner.togglePolicyViolationsOnly', true);
    const folderUri = folderUriOf(workspaceRoot());
    const listed = a.issuesTree.visibleIssues(folderUri);
    assert.ok(listed.some((i) => i.id === evalFinding.issue.id));
    assert.ok(listed.every((i) => i.policies?.length), 'only policy violations');
    await vscode.commands.executeCommand('codeScanner.togglePolicyViolationsOnly', false);
    await vscode.commands.executeCommand('codeScanner.groupBy', 'policy');
    const groupNodes = treeRootsOf(a).filter((n) => n.kind === 'group');
    const groups = groupNodes.map((n) => (n.kind === 'group' ? n.label : ''));
    assert.ok(groups.includes('No eval in this project'), groups.join(', '));
    // The most urgent finding leads, whichever group it is in: a Critical is never put last.
    const rank = (u: string) => ['critical', 'high', 'medium', 'low'].indexOf(u.toLowerCase());
    const firstGroupIssues = a.issuesTree.getChildren(groupNodes[0]!).flatMap((n) => (n.kind === 'issue' ? [n.issue] : []));
    const most = Math.min(...fixtureIssues(a).map((l) => rank(l.issue.urgency)));
    assert.ok(firstGroupIssues.some((i) => rank(i.urgency) === most), `the first group (${groups[0]}) holds a ${['critical', 'high', 'medium', 'low'][most]} finding`);
    await vscode.commands.executeCommand('codeScanner.groupBy', 'file');
  });

  test('Fix with Chat hands over a fenced, bounded prompt with the fix and the code as it is now; without a chat model it is copied and said', async function () {
    this.timeout(30_000);
    const a = await api();
    const l = fixtureIssues(a).find((x) => x.issue.path === 'src/server.js' && x.issue.classificationId === 'CWE-95');
    assert.ok(l);
    const seq = a.notifications().at(-1)?.seq ?? 0;
    const r = await vscode.commands.executeCommand<{ prompt: string; opened: boolean }>('codeScanner.fixWithChat', { folderUri: l.folderUri, issueId: l.issue.id });
    assert.ok(r);
    const ours = r.prompt.slice(0, r.prompt.indexOf('<untrusted-data'));
    assert.match(ours, /Fix one code scanning finding/);
    assert.ok(!ours.includes('src/server.js'), 'the service\'s path is data, not our words');
    assert.strictEqual(r.prompt.split('</untrusted-data>').length, 2);
    assert.ok(r.prompt.length <= 12_000);
    assert.match(r.prompt, /"codeNow"/);
    if (l.issue.fix) assert.ok(r.prompt.includes(JSON.stringify(l.issue.fix.diff).slice(1, 40).replace(/</g, '\\u003c')), 'the suggested diff is in the data');
    if (!r.opened) {
      assert.strictEqual(await vscode.env.clipboard.readText(), r.prompt);
      await waitFor('the notice that the prompt was copied', () => a.notifications(seq).some((n) => /prompt to fix this finding was copied/.test(n.text)));
    }
  });

  test('Apply Fix that no longer applies offers Fix with Chat', async function () {
    this.timeout(30_000);
    const a = await api();
    // Any finding with a fix offered: its line changed by hand, the diff no longer applies.
    const l = fixtureIssues(a).find((x) => x.issue.fix && x.issue.inArchive && x.issue.range && !x.issue.stale);
    assert.ok(l, 'the fixture has a finding with a fix');
    const doc = await vscode.workspace.openTextDocument(l.uri);
    const edit = new vscode.WorkspaceEdit();
    // The line the fix changes, changed by hand: the diff no longer applies, the finding stays placed.
    const line = doc.lineAt(l.issue.range!.start.line);
    edit.insert(doc.uri, line.range.end, ' // edited by hand');
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const seq = a.notifications().at(-1)?.seq ?? 0;
      const applied = await vscode.commands.executeCommand<number>('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id });
      assert.strictEqual(applied, 0);
      const refusal = await waitFor('the refusal', () => a.notifications(seq).find((n) => n.severity === 'error'));
      assert.ok(refusal.actions.includes('Fix with Chat'), JSON.stringify(refusal));
    } finally {
      await revert(doc.uri);
    }
  });
});
