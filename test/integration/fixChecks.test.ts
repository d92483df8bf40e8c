// Fixes the service confirms: once a fixed file is saved, a scan of it says whether the fix
// worked. The sample project's src/session.js holds a fix that leaves its finding and one
// that adds another (the reference service's rules), pricing.js one that works.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { TrackedFix } from '../../src/editor/fixes/fixChecks';
import type { IssueTreeNode } from '../../src/editor/results/issuesTree';
import { adminRequests, adminScans, api, keepScreenshot, logText, closeAllEditors, fault, fileUri, folderUriOf, revert, scan, signIn, treeRootsOf, waitFor, workspaceRoot } from './helpers';

const config = () => vscode.workspace.getConfiguration('codeScanner');
const EDITED = ['src/session.js', 'src/pricing.js', 'scripts/report.py', 'src/server.js', 'src/db.ts'];

async function findingOf(rel: string, classificationId: string) {
  const a = await api();
  const l = a.issues().find((x) => x.issue.path === rel && x.issue.classificationId === classificationId && x.issue.fix);
  assert.ok(l, `${rel} has a fixable ${classificationId} finding: ${a.issues().filter((x) => x.issue.path === rel).map((x) => x.issue.classificationId).join(', ')}`);
  return l;
}

async function applyAndSave(rel: string, classificationId: string) {
  const l = await findingOf(rel, classificationId);
  const n = await vscode.commands.executeCommand<number>('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id });
  assert.strictEqual(n, 1);
  const doc = await vscode.workspace.openTextDocument(l.uri);
  assert.ok(await doc.save(), 'saved');
  return l;
}

/** The check of a fixed finding once the service's scan judged it. */
async function judged(issueId: string, timeoutMs = 60_000): Promise<TrackedFix> {
  const a = await api();
  return waitFor('the check of the fix', () => {
    const c = a.fixChecks().find((x) => x.fixed.id === issueId);
    return c && c.state.kind !== 'verifying' && c.state.kind !== 'applied' && c;
  }, timeoutMs);
}

function checkRows(a: Awaited<ReturnType<typeof api>>): { node: IssueTreeNode; item: vscode.TreeItem }[] {
  const group = treeRootsOf(a).find((n) => n.kind === 'group' && n.fixChecks);
  if (!group) return [];
  return a.issuesTree.getChildren(group).map((node) => ({ node, item: a.issuesTree.getTreeItem(node) }));
}

suite('editor: fixes the service confirms', () => {
  const originals = new Map<string, string>();

  suiteSetup(async function () {
    this.timeout(120_000);
    await api();
    await signIn();
    for (const rel of EDITED) originals.set(rel, fs.readFileSync(fileUri(rel).fsPath, 'utf8'));
    await config().update('scanOnSaveMinInterval', 5, vscode.ConfigurationTarget.Global);
    await config().update('verifyFixes', 'afterSave', vscode.ConfigurationTarget.Global);
  });

  setup(async function () {
    this.timeout(120_000);
    // Each test starts from the sample project as it is, freshly scanned, with no check left.
    for (const [rel, text] of originals) fs.writeFileSync(fileUri(rel).fsPath, text);
    await vscode.commands.executeCommand('codeScanner.clearFixChecks');
    await scan('codeScanner.scanWorkspace');
  });

  teardown(async () => {
    await fault({ action: 'clear' });
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) await revert(doc.uri);
    await closeAllEditors();
  });

  suiteTeardown(async function () {
    this.timeout(120_000);
    await config().update('verifyFixes', 'off', vscode.ConfigurationTarget.Global);
    await config().update('scanOnSaveMinInterval', undefined, vscode.ConfigurationTarget.Global);
    for (const [rel, text] of originals) fs.writeFileSync(fileUri(rel).fsPath, text);
    await vscode.commands.executeCommand('codeScanner.clearFixChecks');
    await scan('codeScanner.scanWorkspace');
  });

  test('a fix that works: "Fix verified", the finding gone, said in the tree and once in a message', async function () {
    this.timeout(120_000);
    const a = await api();
    const seq = a.notifications().at(-1)?.seq ?? 0;
    const scansBefore = (await adminScans()).length;
    const l = await applyAndSave('src/pricing.js', 'CWE-489');
    // Meanwhile the status bar says what waits, as the check of a fix (scan on save is off).
    const spoken = new Set<string>();
    const watching = setInterval(() => spoken.add(a.statusBar.accessibilityInformation?.label ?? ''), 20);
    const c = await judged(l.issue.id).finally(() => clearInterval(watching));
    assert.strictEqual(c.state.kind, 'verified', JSON.stringify(c.state));
    assert.ok([...spoken].some((t) => /Checking applied fixes: 1 saved file will be scanned/.test(t)), [...spoken].join(' | '));
    assert.ok(![...spoken].some((t) => /Scan on save/.test(t)), [...spoken].join(' | '));
    const scans = (await adminScans()).slice(scansBefore);
    assert.strictEqual(scans.length, 1, 'one scan checked it');
    assert.ok(scans[0]!.partial && scans[0]!.filesToScan.includes('src/pricing.js'), JSON.stringify(scans[0]));
    assert.ok(!a.issues().some((x) => x.issue.path === 'src/pricing.js' && x.issue.classificationId === 'CWE-489'), 'the service no longer reports it');
    const row = checkRows(a).find((r) => r.node.kind === 'fixCheck' && r.node.checkId === c.id);
    assert.ok(row, 'the tree lists the checked fix');
    assert.match(String(row.item.description), /^Fix verified · pricing\.js:\d+$/);
    assert.match(row.item.accessibilityInformation?.label ?? '', /Fix verified, src\/pricing\.js line \d+/);
    const said = await waitFor('the message', () => a.notifications(seq).find((n) => /^Code Scanner: Fix verified: the service no longer reports/.test(n.text))).catch((e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(a.notifications(seq))}`);
    });
    assert.strictEqual(said.severity, 'info');
  });

  test('a fix that leaves its finding: "did not remove", the finding back with the note, and Undo Fix takes the fix back', async function () {
    this.timeout(120_000);
    const a = await api();
    const seq = a.notifications().at(-1)?.seq ?? 0;
    const l = await applyAndSave('src/session.js', 'CWE-338');
    const c = await judged(l.issue.id);
    assert.strictEqual(c.state.kind, 'notRemoved', JSON.stringify(c.state));
    const again = a.issues().find((x) => x.issue.id === (c.state as { issueId: string }).issueId);
    assert.ok(again && again.issue.path === 'src/session.js' && again.issue.classificationId === 'CWE-338', 'the finding is in view again');
    // The row of the finding says it, and the checked fix's row offers Undo Fix.
    const groups = treeRootsOf(a).filter((n) => n.kind === 'group' && !n.fixChecks && n.issues.some((i) => i.id === again.issue.id));
    const issueNode = groups.flatMap((g) => a.issuesTree.getChildren(g)).find((n) => n.kind === 'issue' && n.issueId === again.issue.id)!;
    assert.match(String(a.issuesTree.getTreeItem(issueNode).description), /the fix applied for it did not remove it/);
    const row = checkRows(a).find((r) => r.node.kind === 'fixCheck' && r.node.checkId === c.id)!;
    assert.strictEqual(row.item.contextValue, 'fixCheck.notRemoved');
    assert.match(String(row.item.description), /^Fix did not remove the finding/);
    // The hover, with Undo Fix.
    const doc = await vscode.workspace.openTextDocument(again.uri);
    await vscode.window.showTextDocument(doc);
    const at = new vscode.Position(again.issue.range!.start.line, again.issue.range!.start.character + 1);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', again.uri, at);
    const hover = hovers.flatMap((h) => h.contents).map((m) => (typeof m === 'string' ? m : m.value)).join('\n');
    assert.match(hover, /The fix applied for it did not remove it/);
    assert.match(hover, /\[Undo Fix\]\(command:codeScanner\.undoFix/);
    // The details page says it, with Undo Fix.
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.showDetails', { folderUri: again.folderUri, issueId: again.issue.id }), true);
    const page = await waitFor('the details page', () => a.details()?.html.includes('did not remove the finding') && a.details());
    assert.match(page.html, /data-action="undoFix"/);
    await waitFor('the message', () => a.notifications(seq).find((n) => /did not remove the finding/.test(n.text)));
    // Undo Fix, after the save: the buffer has the code as it was before the fix.
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.undoFix', row.node), true);
    assert.ok(doc.getText().includes('const sessionToken = Math.random().toString(36).slice(2);'), doc.getText());
    assert.ok(doc.isDirty, 'edited, not saved');
    assert.ok(!a.fixChecks().some((x) => x.id === c.id), 'the check is over');
  });

  test('a fix that adds a finding: "introduced 1 new finding", listed under it and reachable', async function () {
    this.timeout(120_000);
    const a = await api();
    const seq = a.notifications().at(-1)?.seq ?? 0;
    const l = await applyAndSave('src/session.js', 'CWE-489');
    const c = await judged(l.issue.id);
    assert.strictEqual(c.state.kind, 'introduced', JSON.stringify(c.state));
    const ids = (c.state as { issueIds: string[] }).issueIds;
    assert.strictEqual(ids.length, 1);
    const added = a.issues().find((x) => x.issue.id === ids[0]);
    assert.ok(added && added.issue.classificationId === 'CWE-480', JSON.stringify(added?.issue));
    const row = checkRows(a).find((r) => r.node.kind === 'fixCheck' && r.node.checkId === c.id)!;
    assert.match(String(row.item.description), /^The fix introduced 1 new finding/);
    const under = a.issuesTree.getChildren(row.node);
    assert.deepStrictEqual(under.map((n) => n.kind === 'issue' && n.issueId), [ids[0]]);
    const item = a.issuesTree.getTreeItem(under[0]!);
    assert.strictEqual(item.command?.command, 'vscode.open', 'the new finding opens where it is');
    assert.match(String(item.description), /introduced by the fix for/);
    assert.deepStrictEqual(a.issuesTree.getParent(under[0]!), row.node);
    await waitFor('the message', () => a.notifications(seq).find((n) => /introduced 1 new finding/.test(n.text)));
    // The README's picture (when pictures are kept): the group at the top of the view, and the message.
    await vscode.commands.executeCommand('codeScanner.issues.focus');
    await keepScreenshot('dark-checked-fixes', { notifications: true });
  });

  test('the service failing the check: unknown, never verified, and the fixed finding kept', async function () {
    this.timeout(120_000);
    const a = await api();
    const seq = a.notifications().at(-1)?.seq ?? 0;
    await fault({ action: 'failNext', route: 'startScan', count: 3, status: 403, body: { message: 'refused by the test' } });
    const l = await applyAndSave('src/pricing.js', 'CWE-489');
    const c = await judged(l.issue.id);
    assert.strictEqual(c.state.kind, 'unknown', `${JSON.stringify(c.state)} ${JSON.stringify((await adminRequests()).filter((r) => r.route === 'startScan'))} ${(await logText()).slice(-3000)}`);
    const folder = a.folderState(folderUriOf(workspaceRoot()));
    assert.ok(folder?.left?.some((x) => x.issue.id === l.issue.id && x.how === 'fixed'), 'the fixed finding is kept, as fixed');
    const row = checkRows(a).find((r) => r.node.kind === 'fixCheck' && r.node.checkId === c.id)!;
    assert.match(String(row.item.description), /^Not verified: /);
    const said = await waitFor('the message', () => a.notifications(seq).find((n) => /could not be verified/.test(n.text)));
    assert.strictEqual(said.severity, 'warning');
    assert.ok(!a.notifications(seq).some((n) => /Fix verified/.test(n.text)));
    // Undo brings the finding back into view as ever.
    const doc = await vscode.workspace.openTextDocument(l.uri);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await waitFor('the finding back after Undo', () => a.issues().some((x) => x.issue.id === l.issue.id));
  });

  test('Apply All Fixes over three files, then each saved: one scan checks every fix', async function () {
    this.timeout(150_000);
    const a = await api();
    const files = ['src/pricing.js', 'scripts/report.py', 'src/session.js'];
    const chosen = a.issues().filter((x) => files.includes(x.issue.path) && x.issue.fix && !x.issue.falsePositive && x.issue.kind !== 'dependency');
    assert.deepStrictEqual([...new Set(chosen.map((x) => x.issue.path))].sort(), [...files].sort());
    const scansBefore = (await adminScans()).length;
    const group = { kind: 'group', folderUri: chosen[0]!.folderUri, issues: chosen.map((x) => ({ id: x.issue.id })), choice: 'apply' };
    const result = await vscode.commands.executeCommand<{ applied: number }>('codeScanner.applyAllFixes', group);
    assert.ok(result.applied >= 3, JSON.stringify(result));
    // Each file saved in turn, as Save All does: the saves of one moment go in one scan.
    for (const rel of files) {
      const doc = await vscode.workspace.openTextDocument(fileUri(rel));
      assert.ok(doc.isDirty, `${rel} was fixed`);
      assert.ok(await doc.save(), `${rel} saved`);
    }
    const checks = await waitFor('every fix checked', () => {
      const mine = a.fixChecks().filter((c) => chosen.some((x) => x.issue.id === c.fixed.id));
      return mine.length === result.applied && mine.every((c) => c.state.kind !== 'verifying' && c.state.kind !== 'applied') && mine;
    }, 90_000).catch(async (e: Error) => {
      throw new Error(`${e.message}: applied ${result.applied}; ${JSON.stringify(a.fixChecks().map((c) => [c.path, c.fixed.classificationId, c.state]))}; scans ${JSON.stringify((await adminScans()).slice(scansBefore).map((x) => x.filesToScan))}`);
    });
    const scans = (await adminScans()).slice(scansBefore);
    assert.strictEqual(scans.length, 1, `one batched scan, not ${scans.length}`);
    assert.deepStrictEqual([...scans[0]!.filesToScan].sort(), [...files].sort());
    assert.ok(checks.every((c) => c.state.kind !== 'unknown'), JSON.stringify(checks.map((c) => c.state)));
    const kinds = checks.map((c) => c.state.kind);
    assert.ok(kinds.includes('verified') && kinds.includes('notRemoved') && kinds.includes('introduced'), kinds.join(', '));
  });
});
