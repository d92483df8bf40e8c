// Review and fix as a security team uses it, in a real VS Code: findings never lost or
// misplaced (undo, refresh), fixes a few lines apart, the preview's own Apply/Discard, the
// files left out, a cancel that came too late, another account, errors that say what to
// do, and every field of a finding in its details view and hover.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { LocatedIssue } from '../../src/editor/results/resultsStore';
import {
  FAST, adminPolicies, api, closeAllEditors, diagnosticsUnder, env, fault, fileUri, fixtureIssues, injectIssues, ourDiagnostics, revert, scan,
  signIn, treeRootsOf, viewWelcome, waitFor, workspaceRoot, type ScanSummary,
} from './helpers';

/** Two findings with fixes three lines apart: their diffs' contexts overlap, their changes do not. */
const CLOSE = 'src/close-fixes.js';
const CLOSE_TEXT = 'function a(x, y) {\n  if (x == y) return 1;\n  const z = 2;\n  const w = 3;\n  if (y == z) return w;\n  return 0;\n}\nmodule.exports = a;\n';

async function fixable(rel: string): Promise<LocatedIssue[]> {
  return (await api()).issues().filter((l) => l.issue.path === rel && l.issue.fix && l.issue.inArchive);
}

async function adminSeed(): Promise<{ tokens: Record<string, string>; policies: { id: number; company: number; active: boolean; archived: boolean }[] }> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL')}/seed`);
  return await res.json() as never;
}

/** Runs `act` while modal dialogs are answered with `answer`; returns the dialogs' messages. */
async function answeringModals(answer: string | undefined, act: () => Thenable<unknown>): Promise<string[]> {
  const window = vscode.window as { showWarningMessage: unknown };
  const original = window.showWarningMessage;
  const asked: string[] = [];
  window.showWarningMessage = (message: string, ...rest: unknown[]) => {
    const options = rest[0] as vscode.MessageOptions | undefined;
    if (options && typeof options === 'object' && 'modal' in options) {
      asked.push(message);
      return Promise.resolve(answer);
    }
    return (original as (...a: unknown[]) => Thenable<unknown>)(message, ...rest);
  };
  try {
    await act();
  } finally {
    window.showWarningMessage = original;
  }
  return asked;
}

suite('review and fix', () => {
  const created: string[] = [];

  suiteSetup(async () => {
    await api();
    await signIn();
    fs.writeFileSync(fileUri(CLOSE).fsPath, CLOSE_TEXT);
    created.push(fileUri(CLOSE).fsPath);
    await scan('codeScanner.scanWorkspace');
  });

  teardown(async () => {
    await fault({ action: 'clear' });
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) await revert(doc.uri);
    await closeAllEditors();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  suiteTeardown(async () => {
    for (const p of created) fs.rmSync(p, { recursive: true, force: true });
    await signIn();
    await vscode.commands.executeCommand('codeScanner.clearFilters');
    await scan('codeScanner.scanWorkspace');
  });

  test('Apply Fix, then Undo: the finding is back on its line with its fix; Redo takes it away again', async () => {
    const [l] = await fixable('scripts/report.py');
    assert.ok(l, 'report.py has a fixable finding');
    const doc = await vscode.workspace.openTextDocument(l.uri);
    await vscode.window.showTextDocument(doc);
    const before = { range: l.issue.range, diagnostics: ourDiagnostics(l.uri).length };
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id }), 1);
    const a = await api();
    await waitFor('the fixed finding to leave', () => !a.issues().some((x) => x.issue.id === l.issue.id));
    await vscode.commands.executeCommand('undo');
    const back = await waitFor('the finding to come back after Undo', () => a.issues().find((x) => x.issue.id === l.issue.id));
    assert.deepStrictEqual(back.issue.range, before.range, 'on its line, exactly as before');
    assert.ok(back.issue.fix && back.issue.inArchive, 'with its fix');
    await waitFor('Problems to show it again', () => ourDiagnostics(l.uri).length === before.diagnostics);
    await vscode.commands.executeCommand('redo');
    await waitFor('Redo to take it away again', () => !a.issues().some((x) => x.issue.id === l.issue.id));
    await vscode.commands.executeCommand('undo');
    await waitFor('and Undo to bring it back once more', () => a.issues().some((x) => x.issue.id === l.issue.id));
  });

  test('a fix reverted by hand, rescanned and applied again: Undo brings back only the current finding, no ghost of the old scan', async () => {
    const a = await api();
    const [first] = await fixable('scripts/report.py');
    assert.ok(first);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: first.folderUri, issueId: first.issue.id }), 1);
    await revert(first.uri);
    await scan('codeScanner.scanWorkspace');
    const [again] = await fixable('scripts/report.py');
    assert.ok(again && again.issue.id !== first.issue.id, 'the rescan reports it under a new id');
    const count = () => a.issues().filter((x) => x.uri.toString() === again.uri.toString()).length;
    const before = count();
    await vscode.window.showTextDocument(again.uri);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: again.folderUri, issueId: again.issue.id }), 1);
    await vscode.commands.executeCommand('undo');
    await waitFor('the finding to come back', () => a.issues().some((x) => x.issue.id === again.issue.id));
    assert.strictEqual(count(), before, 'exactly the findings of before');
    assert.ok(!a.issues().some((x) => x.issue.id === first.issue.id), 'the old scan\'s copy stays away');
  });

  test('Refresh Results keeps a fixed finding away and does not pin a finding of changed code to a wrong line', async () => {
    const a = await api();
    const scanId = await scan('codeScanner.scanWorkspace');
    const [l] = await fixable('src/db.ts');
    assert.ok(l);
    const doc = await vscode.workspace.openTextDocument(l.uri);
    await vscode.window.showTextDocument(doc);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id }), 1);
    // Lines inserted at the top: the service's line numbers no longer hold for this file.
    const editor = vscode.window.activeTextEditor!;
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// one\n// two\n// three\n'));
    const tracked = a.issues().filter((x) => x.issue.path === 'src/db.ts').map((x) => [x.issue.id, x.issue.range!.start.line] as const);
    // A finding this editor never placed, reported for the changed file (a scan still producing results).
    await injectIssues(scanId, [{ id: 'late-finding', urgency: 'high', classification: { id: 'CWE-89', name: 'SQL Injection' }, location: { file: { path: 'src/db.ts' }, line_number: 2 } }]);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.refreshResults'), true);
    assert.ok(!a.issues().some((x) => x.issue.id === l.issue.id), 'the fixed finding stays away until a scan says otherwise');
    for (const [id, line] of tracked) assert.strictEqual(a.issues().find((x) => x.issue.id === id)?.issue.range?.start.line, line, 'tracked findings keep their place');
    const late = a.issues().find((x) => x.issue.id === 'late-finding');
    assert.ok(late?.issue.stale, 'the new finding is marked stale instead of being put at line 2');
    assert.ok(!ourDiagnostics(l.uri).some((d) => d.range.start.line === 1 && d.message.includes('SQL Injection')), 'no diagnostic at the line the service named');
    assert.match(a.issuesTree.viewMessage ?? '', /could not be placed because the code changed since the scan/);
    await vscode.commands.executeCommand('codeScanner.clearFilters');
    assert.ok(!a.issues().some((x) => x.issue.id === l.issue.id), 'Clear Issue Filters does not bring it back either');
    await revert(l.uri);
  });

  test('Apply All Fixes in File applies fixes a few lines apart in a never-edited file, in one undo step', async () => {
    await scan('codeScanner.scanWorkspace');
    const fixes = await fixable(CLOSE);
    assert.strictEqual(fixes.length, 2, 'two fixable findings three lines apart');
    const doc = await vscode.workspace.openTextDocument(fileUri(CLOSE));
    await vscode.window.showTextDocument(doc);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyAllFixesInFile', doc.uri), 2);
    assert.strictEqual(doc.getText(), CLOSE_TEXT.replace('x == y', 'x === y').replace('y == z', 'y === z'));
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(doc.getText(), CLOSE_TEXT, 'one undo step takes both back');
    await waitFor('both findings to come back', async () => (await fixable(CLOSE)).length === 2);
  });

  test('the preview has Apply and Discard in its title bar, named after the fix', async () => {
    const [l] = await fixable(CLOSE);
    const ref = { folderUri: l.folderUri, issueId: l.issue.id };
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.previewFix', ref), true);
    const diffTab = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'code-scanner-fix');
    const tab = await waitFor('the preview', diffTab);
    assert.ok(tab.label.includes(l.issue.fix!.explanation.slice(0, 20)), tab.label);
    const modified = (tab.input as vscode.TabInputTextDiff).modified;
    await vscode.commands.executeCommand('codeScanner.discardPreviewedFix', modified);
    await waitFor('Discard to close the preview', () => !diffTab());
    assert.strictEqual((await vscode.workspace.openTextDocument(l.uri)).getText(), CLOSE_TEXT, 'Discard changes nothing');
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.previewFix', ref), true);
    const again = await waitFor('the preview', diffTab);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyPreviewedFix', (again.input as vscode.TabInputTextDiff).modified), 1);
    await waitFor('Apply to close the preview', () => !diffTab());
    assert.notStrictEqual((await vscode.workspace.openTextDocument(l.uri)).getText(), CLOSE_TEXT, 'Apply changed the file');
    const notified = (await api()).notifications().filter((n) => n.actions.includes('Apply Fix'));
    assert.deepStrictEqual(notified, [], 'no toast holds the Apply button');
  });

  test('a scan ends with one message: each folder\'s count and the files left out by every reason, with Show Skipped Files', async () => {
    const secret = path.join(workspaceRoot(), 'config', 'prod.env');
    fs.mkdirSync(path.dirname(secret), { recursive: true });
    fs.writeFileSync(secret, 'DB_PASSWORD=hunter2\n');
    created.push(path.join(workspaceRoot(), 'config'));
    // A binary asset: left out for another reason, which the summary counts too.
    fs.mkdirSync(path.join(workspaceRoot(), 'assets'), { recursive: true });
    fs.writeFileSync(path.join(workspaceRoot(), 'assets', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    created.push(path.join(workspaceRoot(), 'assets'));
    const a = await api();
    const earlier = a.notifications().at(-1)?.seq ?? 0;
    const summary = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', FAST);
    const folder = summary?.folders.find((f) => f.scanId);
    assert.ok(folder?.leftOut?.some((s) => s.path === 'config/prod.env' && s.reason === 'credentials'), JSON.stringify(folder?.leftOut));
    // One message: the count of each folder and every reason files were left out for.
    const said = a.notifications(earlier).filter((n) => /Scan finished/.test(n.text));
    assert.strictEqual(said.length, 1, JSON.stringify(a.notifications(earlier)));
    const shown = said[0];
    assert.match(shown.text, /^Code Scanner: Scan finished: \d+ issues?(, \d+ new,)? in order-service, (no issues|\d+ issues?)(, \d+ new,)? in ops-tools\. /);
    const leftOut = summary!.folders.flatMap((f) => f.leftOut ?? []);
    assert.match(shown.text, new RegExp(`${leftOut.length} files? (was|were) left out, besides what git ignores: .*credential files: \\d+`));
    // Every reason is counted, not only credential files (the scan reports what Upload Preview lists).
    assert.ok(new Set(leftOut.map((x) => x.reason)).size >= 2, JSON.stringify(leftOut.map((x) => x.reason)));
    assert.ok(shown.actions.includes('Show Skipped Files') && shown.actions.includes('Show Issues'), shown.actions.join(', '));
  });

  test('a cancel after the upload finished says the service still scans it, and keeps the findings as they were', async () => {
    const a = await api();
    const before = a.issues().map((l) => l.issue.id).sort();
    const earlier = a.notifications().at(-1)?.seq ?? 0;
    await fault({ action: 'delayNext', route: 'qualityIssues', count: 3, ms: 1500 });
    let summary: ScanSummary | undefined;
    const running = Promise.resolve(vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', FAST)).then((s) => { summary = s; });
    await waitFor('the scan to wait for results', () => /waiting for/.test(String((a.statusBar.tooltip as vscode.MarkdownString | undefined)?.value ?? '')), 20_000);
    await vscode.commands.executeCommand('codeScanner.cancelScan');
    await running;
    assert.ok(summary?.cancelled);
    assert.ok(summary?.continuesOnService, `the summary names the scan that goes on: ${JSON.stringify(summary)}`);
    const shown = await waitFor('the message', () => a.notifications(earlier).find((n) => /Stopped waiting for the scan/.test(n.text)));
    // One folder's scan goes on, or both (they upload side by side): one message either way.
    assert.ok(shown.actions.includes('Refresh Results') && (shown.actions.includes('Ignore This Scan') || shown.actions.includes('Ignore These Scans')), shown.actions.join(', '));
    assert.ok(!a.notifications(earlier).some((n) => /Scan cancelled/.test(n.text)), 'it does not claim a cancel');
    assert.deepStrictEqual(a.issues().map((l) => l.issue.id).sort(), before, 'nothing that arrived replaced the findings');
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.ignoreScan', { scanId: summary!.continuesOnService }), true);
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      for (const p of a.folderState(f.uri.toString())?.pending ?? []) await vscode.commands.executeCommand('codeScanner.ignoreScan', { scanId: p.scanId });
    }
  });

  test('another account: the previous account\'s findings are cleared; its target policies are its own, and one its company no longer has is dropped with a message', async () => {
    const a = await api();
    const seed = await adminSeed();
    await scan('codeScanner.scanWorkspace');
    const [retiring] = await adminPolicies({ add: [{ name: 'Review: a target about to be retired', cwes: ['CWE-95'], projects: [] }] });
    const chosen = await vscode.commands.executeCommand<{ ok: boolean }>('codeScanner.chooseTargetPolicies', { policyIds: [retiring] });
    assert.strictEqual(chosen?.ok, true);
    assert.ok(a.issues().length > 0);
    const seq = a.notifications().at(-1)?.seq ?? 0;
    await vscode.commands.executeCommand('codeScanner.signIn', { token: seed.tokens.otherCompany });
    await waitFor('the old findings to go', () => a.issues().length === 0);
    // The view says what is true: scans did complete, with the other account; not "no scan has completed".
    await vscode.commands.executeCommand('codeScanner.issues.focus');
    const welcome = await waitFor('the view to say why it is empty', async () => { const w = await viewWelcome('Quality Issues'); return w === undefined ? 'no probe' : /made with another account/.test(w) && w; });
    if (welcome !== 'no probe') assert.doesNotMatch(welcome, /No scan has completed/);
    await adminPolicies({ remove: [retiring!] });
    await signIn();
    const dropped = await waitFor('the target policy message', () => a.notifications(seq).find((n) => /target policies of this workspace/.test(n.text)));
    assert.match(dropped.text, new RegExp(`a policy this company no longer has \\(id ${retiring}\\) is not an active policy`));
    assert.strictEqual(dropped.severity, 'warning');
    await vscode.commands.executeCommand('codeScanner.chooseTargetPolicies', { policyIds: [] });
  });

  test('after a 401 the view stops saying who is signed in; a view that could not reach the service recovers by itself', async () => {
    const a = await api();
    await fault({ action: 'failNext', route: 'roles', count: 1, status: 401, body: { error: 'token revoked' } });
    await vscode.commands.executeCommand('codeScanner.showCompanyRoles');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.ok(!String((a.statusBar.tooltip as vscode.MarkdownString).value).includes('Signed in as'), 'the status bar no longer says "Signed in as"');
    await signIn();
    assert.match(String((a.statusBar.tooltip as vscode.MarkdownString).value), /Signed in as/);

    // The service stays down until the test brings it back: a load the sign-in started, still
    // in flight, may take some of the failures, so a count of three could leave the refresh none.
    await fault({ action: 'failNext', route: 'policies', count: 1000, status: 503 });
    const broken = await vscode.commands.executeCommand<{ message?: string }>('codeScanner.policies.refresh');
    assert.match(broken?.message ?? '', /Could not load the policies/);
    await fault({ action: 'clear' });
    // Without any command: the view tries again by itself.
    const healed = await waitFor('the Policies view to load again by itself', () => {
      const snap = a.policies();
      return snap.message === undefined && snap.policies.length > 0 ? snap : undefined;
    }, 30_000);
    assert.ok(healed.policies.length > 0);
  });

  test('errors say what is missing in words and what to do; a refused value can be edited and retried', async () => {
    const a = await api();
    const seed = await adminSeed();
    await vscode.commands.executeCommand('codeScanner.signIn', { token: seed.tokens.noPermissions });
    try {
      const r = await vscode.commands.executeCommand<{ ok: boolean; message: string }>('codeScanner.showCompanyRoles');
      assert.strictEqual(r?.ok, false);
      assert.match(r!.message, /not allowed to view the company roles/);
      assert.ok(!/blast/i.test(r!.message));
    } finally {
      await signIn();
    }
    const mark = a.notifications().at(-1)?.seq ?? 0;
    const bad = await vscode.commands.executeCommand<{ ok: boolean; kind: string }>('codeScanner.addTeamMembers', { teamId: 999999, memberIds: [1] });
    assert.strictEqual(bad?.ok, false);
    const shown = await waitFor('the refusal', () => a.notifications(mark).find((n) => n.severity === 'error'));
    assert.ok(shown.actions.includes('Show Log'), 'every error offers the log');
  });

  test('Sign Out and Clear Results ask first; the signed-out status bar says "Sign in to scan"', async () => {
    const a = await api();
    const count = a.issues().length;
    const asked = await answeringModals(undefined, () => vscode.commands.executeCommand('codeScanner.clearResults'));
    assert.strictEqual(asked.length, 1);
    assert.strictEqual(a.issues().length, count, 'nothing cleared without a yes');
    const askedOut = await answeringModals(undefined, () => vscode.commands.executeCommand('codeScanner.signOut'));
    assert.strictEqual(askedOut.length, 1);
    assert.strictEqual(await a.hasStoredToken(), true);
    await vscode.commands.executeCommand('codeScanner.clearResults', { confirmed: true });
    await vscode.commands.executeCommand('codeScanner.signOut', { confirmed: true });
    await waitFor('the signed-out status bar', () => a.statusBar.text === '$(sign-in) Sign in to scan');
    assert.strictEqual(a.statusBar.accessibilityInformation?.label, 'Code Scanner: sign in to scan', 'plain words for screen readers');
    await signIn();
    await scan('codeScanner.scanWorkspace');
  });

  test('the details view shows every field of the finding; the hover leads there, the Problems code link to the CWE page', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const l = a.issues().find((x) => x.issue.path === 'src/server.js' && x.issue.classificationId === 'CWE-95');
    assert.ok(l, 'the eval finding');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', l.uri, l.issue.range!.start);
    const md = hovers.flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')).join('\n');
    // The editor's own diagnostic hover shows the title; ours adds what it lacks, not the title again.
    const diagnostic = ourDiagnostics(l.uri).find((d) => d.code === 'security/CWE-95')!;
    assert.ok(diagnostic.message.includes(l.issue.classificationName), diagnostic.message);
    assert.ok(!md.replace(/\\(.)/g, '$1').includes(l.issue.classificationName), md);
    assert.match(md, /Urgency/);
    assert.match(md, /SLA status: on track/, 'human words, not on_track');
    const commands = [...md.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]);
    assert.ok(commands.includes('codeScanner.showDetails'), md);
    assert.ok(commands.every((c) => ['codeScanner.showDetails', 'codeScanner.previewFix', 'codeScanner.applyFix', 'codeScanner.fixWithChat'].includes(c)), commands.join(', '));
    const diag = ourDiagnostics(l.uri).find((d) => d.code === 'security/CWE-95')!;
    const code = diag.original.code as { value: string; target: vscode.Uri };
    assert.strictEqual(code.target.toString(), 'https://cwe.mitre.org/data/definitions/95.html');

    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.showDetails', { folderUri: l.folderUri, issueId: l.issue.id }), true);
    const details = await waitFor('the details view', () => a.details());
    const text = details.html.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    for (const v of [l.issue.classificationName, l.issue.classificationId, 'Critical', l.issue.status, l.issue.path, l.issue.id, 'Auto-triage', 'Auto-fix', 'Reachability']) {
      assert.ok(text.includes(v), `details show ${v}`);
    }
    assert.match(details.html, /Content-Security-Policy" content="default-src 'none'/);
  });

  test('from the light bulb or the Command Palette, Show Finding Details takes the finding under the cursor', async () => {
    const a = await api();
    const l = a.issues().find((x) => x.issue.path === 'src/server.js' && x.issue.classificationId === 'CWE-95');
    assert.ok(l && l.issue.range, 'the eval finding');
    const editor = await vscode.window.showTextDocument(l.uri);
    const diag = await waitFor('the finding in Problems', () => ourDiagnostics(l.uri).find((d) => d.code === 'security/CWE-95'));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', l.uri, diag.range, vscode.CodeActionKind.QuickFix.value);
    const show = actions.find((x) => x.command?.command === 'codeScanner.showDetails');
    assert.ok(show, actions.map((x) => x.title).join(' | '));
    assert.deepStrictEqual(show.command!.arguments, [{ folderUri: l.folderUri, issueId: l.issue.id }]);

    const at = new vscode.Position(l.issue.range.start.line, l.issue.range.start.character);
    editor.selection = new vscode.Selection(at, at);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.showDetails'), true);
    const details = await waitFor('the details view', () => a.details());
    assert.ok(details.html.includes(l.issue.id), 'the finding under the cursor');

    // Line 1 of server.js is a plain require: no finding there.
    assert.ok(!a.issues().some((x) => x.uri.toString() === l.uri.toString() && x.issue.line === 1));
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.showDetails'), false);
    assert.ok(a.notifications().some((n) => /No Code Scanner finding at the cursor/.test(n.text)));
  });

  test('the tree: most urgent and reachable first, urgency and line in the label; filters by urgency, reachability and assignee', async () => {
    const a = await api();
    await vscode.commands.executeCommand('codeScanner.groupBy', 'classification');
    const order = ['critical', 'high', 'medium', 'low'];
    for (const g of treeRootsOf(a)) {
      if (g.kind !== 'group') continue;
      const ranks = a.issuesTree.getChildren(g).map((n) => (n.kind === 'issue' ? order.indexOf(n.issue.urgency) : 0));
      assert.deepStrictEqual(ranks, [...ranks].sort((x, y) => x - y), `${g.key}: most urgent first`);
    }
    await vscode.commands.executeCommand('codeScanner.groupBy', 'file');
    await vscode.commands.executeCommand('codeScanner.toggleReachableOnly', true);
    const reachable = treeRootsOf(a).flatMap((g) => a.issuesTree.getChildren(g));
    assert.ok(reachable.length > 0 && reachable.every((n) => n.kind === 'issue' && n.issue.reachable === true));
    await vscode.commands.executeCommand('codeScanner.toggleReachableOnly', false);
    await vscode.commands.executeCommand('codeScanner.toggleAssignedToMe', true);
    const mine = treeRootsOf(a).flatMap((g) => a.issuesTree.getChildren(g));
    // The reference service assigns critical findings to whoever uploaded them.
    assert.ok(mine.length > 0 && mine.every((n) => n.kind === 'issue' && n.issue.urgency === 'critical'), `assigned to me: ${mine.length}`);
    await vscode.commands.executeCommand('codeScanner.clearFilters');
  });

  test('dismiss locally: out of Problems and counts, in a Dismissed group, and restorable', async () => {
    const a = await api();
    const l = fixtureIssues(a).find((x) => x.issue.path === 'src/server.js')!;
    const ref = { folderUri: l.folderUri, issueId: l.issue.id };
    const before = diagnosticsUnder().length;
    const status = a.statusBar.text;
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.dismissFinding', { ...ref, reason: 'accepted-risk' }), true);
    await waitFor('the finding to leave Problems', () => diagnosticsUnder().length === before - 1);
    assert.notStrictEqual(a.statusBar.text, status, 'the count follows');
    const dismissed = treeRootsOf(a).find((g) => g.kind === 'group' && g.dismissed);
    assert.ok(dismissed && a.issuesTree.getChildren(dismissed).some((n) => n.kind === 'issue' && n.issueId === l.issue.id));
    assert.match(String(a.issuesTree.getTreeItem(dismissed).tooltip), /service has no operation/);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.restoreFinding', ref), true);
    await waitFor('the finding to return', () => diagnosticsUnder().length === before);
  });
});
