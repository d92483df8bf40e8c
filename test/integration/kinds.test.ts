// Every finding the service keeps (decisions.md, "Every list the service keeps"): a scan's
// security, code quality and dependency findings in the tree, Problems and the details page;
// the same id in two lists is two findings; a list that fails keeps its findings and says
// which; a service without the dependency list says so once; Upgrade to X edits the manifest.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ConnectionReport } from '../../src/core/network';
import {
  FAST, api, closeAllEditors, fault, fileUri, fixtureIssues, injectIssues, logText, ourDiagnostics, revert, scan, serviceIssues,
  setAnswerMode, signIn, treeRootsOf, waitFor, type ScanSummary,
} from './helpers';

const MANIFEST = 'package.json';

suite('editor: security, code quality and dependency findings', () => {
  suiteSetup(async () => {
    await api();
    await signIn();
  });

  suiteTeardown(async () => {
    await fault({ action: 'clear' });
    await setAnswerMode({ lists: null });
    await vscode.commands.executeCommand('codeScanner.groupBy', 'file');
    await vscode.commands.executeCommand('codeScanner.clearFilters');
    await revert(fileUri(MANIFEST));
    await closeAllEditors();
    await scan('codeScanner.scanWorkspace');
  });

  test('a workspace scan shows every list: the tree by kind, Problems with a dependency on its manifest line, the details page', async () => {
    const a = await api();
    const scanId = await scan('codeScanner.scanWorkspace');
    const wire = await serviceIssues(scanId);
    for (const kind of ['security', 'quality', 'dependency'] as const) assert.ok(wire.some((i) => i.kind === kind), `the fixture has ${kind} findings`);
    assert.deepStrictEqual(fixtureIssues(a).map((l) => l.issue.id).sort(), wire.map((i) => i.id).sort(), 'every finding of every list, once');

    await vscode.commands.executeCommand('codeScanner.groupBy', 'kind');
    const groups = treeRootsOf(a).map((g) => a.issuesTree.getTreeItem(g));
    assert.deepStrictEqual(groups.map((g) => String(g.label)), ['Security', 'Code quality', 'Dependency']);
    assert.deepStrictEqual(groups.map((g) => Number(g.description)), ['security', 'quality', 'dependency'].map((k) => wire.filter((i) => i.kind === k).length));
    await vscode.commands.executeCommand('codeScanner.groupBy', 'file');
    const rows = treeRootsOf(a).flatMap((g) => a.issuesTree.getChildren(g)).map((n) => a.issuesTree.getTreeItem(n));
    const lodashRow = rows.find((r) => String(r.description).includes('CVE-2021-23337'));
    assert.ok(lodashRow, rows.map((r) => r.description).join(' | '));
    assert.match(String(lodashRow.description), /Dependency · (.* · )?upgrade to 4\.17\.21/);
    assert.match(lodashRow.accessibilityInformation!.label, /Dependency/);
    assert.ok(rows.some((r) => /Security/.test(String(r.description))) && rows.some((r) => /Code quality/.test(String(r.description))));

    // Problems: the manifest's findings on the lines naming their packages, each saying its kind.
    const lines = (await vscode.workspace.openTextDocument(fileUri(MANIFEST))).getText().split('\n');
    const diags = ourDiagnostics(fileUri(MANIFEST));
    for (const [pkg, code] of [['lodash', 'dependency/CVE-2021-23337'], ['minimist', 'dependency/CVE-2021-44906'], ['event-stream', 'dependency/malicious']]) {
      const d = diags.find((x) => x.code === code);
      assert.ok(d, `${pkg}: ${diags.map((x) => x.code).join(', ')}`);
      assert.ok(lines[d.range.start.line]!.includes(`"${pkg}"`), `${pkg} on its line: ${lines[d.range.start.line]}`);
      assert.match(d.message, /^Dependency · /);
    }
    const malicious = diags.find((d) => d.code === 'dependency/malicious')!;
    assert.strictEqual(malicious.severity, vscode.DiagnosticSeverity.Error, 'a malicious package is critical');
    assert.match(malicious.message, /Malicious package event-stream \(Critical\)/);
    assert.strictEqual(String((malicious.original.code as { target?: vscode.Uri }).target ?? ''), '', 'no record to link to');
    const lodash = diags.find((d) => d.code === 'dependency/CVE-2021-23337')!;
    assert.strictEqual(String((lodash.original.code as { target: vscode.Uri }).target), 'https://nvd.nist.gov/vuln/detail/CVE-2021-23337');
    assert.match(lodash.message, /Package: lodash 4\.17\.15 · Fixed in: upgrade to 4\.17\.21/);
    assert.ok(ourDiagnostics(fileUri('src/server.js')).some((d) => d.code === 'security/CWE-95' && /^Security · /.test(d.message)));

    // The details page: package, installed version, ecosystem, CVE, the fixed version.
    const l = a.issues().find((x) => x.issue.dependency?.name === 'lodash')!;
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.showDetails', { folderUri: l.folderUri, issueId: l.issue.id }), true);
    const details = await waitFor('the details view', () => a.details());
    for (const v of ['Dependency', 'lodash 4.17.15', 'npm', 'CVE-2021-23337', 'upgrade to 4.17.21']) assert.ok(details.html.includes(v), `details show ${v}`);
    // The status bar's tooltip counts each kind.
    const tip = String((a.statusBar.tooltip as vscode.MarkdownString).value);
    assert.match(tip, /\d+ security, \d+ code quality and \d+ dependencies/, tip);
  });

  test('a security and a code quality finding with the same id both stay, each dismissed on its own', async () => {
    const a = await api();
    const scanId = await scan('codeScanner.scanWorkspace');
    const twin = (name: string) => ({ id: 'twin-1', classification: { id: 'CWE-1', name }, urgency: 'low', location: { file: { path: 'src/format.ts' }, line_number: 1 } });
    await injectIssues(scanId, [twin('Twin in security')], 'security');
    await injectIssues(scanId, [twin('Twin in quality')], 'quality');
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.refreshResults'), true);
    const sec = a.issues().find((l) => l.issue.id === 'security:twin-1');
    const qual = a.issues().find((l) => l.issue.id === 'twin-1');
    assert.ok(sec && qual, 'both stay');
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.dismissFinding', { folderUri: sec.folderUri, issueId: sec.issue.id, reason: 'wont-fix' }), true);
    const codes = () => ourDiagnostics(fileUri('src/format.ts')).map((d) => d.code);
    await waitFor('the security one out of Problems', () => !codes().includes('security/CWE-1'));
    assert.ok(codes().includes('quality/CWE-1'), 'the code quality one stays');
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.restoreFinding', { folderUri: sec.folderUri, issueId: sec.issue.id }), true);
  });

  test('a 503 on one list keeps that list\'s findings and says which; the others change', async function () {
    this.timeout(120_000);
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const before = fixtureIssues(a).filter((l) => l.issue.kind === 'dependency').map((l) => l.issue.id).sort();
    assert.ok(before.length >= 3);
    await fault({ action: 'failNext', route: 'dependencyIssues', count: 1000, status: 503 });
    const earlier = a.notifications().at(-1)?.seq ?? 0;
    const summary = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', { ...FAST, retryBaseDelayMs: 20 });
    const folder = summary?.folders.find((f) => f.folder === 'order-service');
    assert.ok(folder?.scanId, JSON.stringify(summary));
    assert.deepStrictEqual(folder.unreadLists?.map((l) => l.kind), ['dependency']);
    assert.deepStrictEqual(fixtureIssues(a).filter((l) => l.issue.kind === 'dependency').map((l) => l.issue.id).sort(), before, 'the earlier dependency findings stay');
    const fresh = await serviceIssues(folder.scanId, undefined, { lists: ['security', 'quality'] });
    assert.ok(fresh.every((i) => a.issues().some((l) => l.issue.id === i.id)), 'the lists that were read are this scan\'s');
    const said = await waitFor('the message', () => a.notifications(earlier).find((n) => /Scan finished/.test(n.text)));
    assert.match(said.text, /order-service: the dependency findings could not be read \(.*503.*\); the earlier ones are kept/);
    assert.match(a.issuesTree.viewMessage ?? '', /the dependency findings of the scan of .* could not be read/i);
    await fault({ action: 'clear' });
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.refreshResults'), true);
    await waitFor('the note gone once the list is read', () => !/could not be read/.test(a.issuesTree.viewMessage ?? ''));
  });

  test('a service without the dependency list: the other two are shown, and it is said once, never as 0', async function () {
    this.timeout(120_000);
    const a = await api();
    await setAnswerMode({ lists: ['security', 'quality'] });
    try {
      await scan('codeScanner.scanWorkspace');
      const second = await scan('codeScanner.scanWorkspace');
      assert.ok(!fixtureIssues(a).some((l) => l.issue.kind === 'dependency'), 'no dependency findings: the service has none');
      assert.deepStrictEqual(fixtureIssues(a).map((l) => l.issue.id).sort(), (await serviceIssues(second, undefined, { lists: ['security', 'quality'] })).map((i) => i.id).sort());
      const said = (await logText()).split('\n').filter((l) => /has no list of dependency findings/.test(l));
      assert.strictEqual(said.length, 1, `said once: ${said.join('\n')}`);
      assert.ok(!/0 dependenc/.test(String((a.statusBar.tooltip as vscode.MarkdownString).value)));
      const report = await vscode.commands.executeCommand<ConnectionReport>('codeScanner.checkConnection');
      assert.match(report.text, /Findings:\s+security findings and code quality findings; the service has no list of dependency findings/);
    } finally {
      await setAnswerMode({ lists: null });
    }
  });

  test('Upgrade to X edits package.json as a reviewed fix; where the edit is unclear, the version is offered to copy', async function () {
    this.timeout(90_000);
    const a = await api();
    const scanId = await scan('codeScanner.scanWorkspace');
    const uri = fileUri(MANIFEST);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const l = a.issues().find((x) => x.issue.dependency?.name === 'lodash')!;
    const d = await waitFor('the lodash finding in Problems', () => ourDiagnostics(uri).find((x) => x.code === 'dependency/CVE-2021-23337'));
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range, vscode.CodeActionKind.QuickFix.value);
    const upgrade = actions.find((x) => x.title === 'Code Scanner: Upgrade lodash to 4.17.21');
    assert.ok(upgrade, actions.map((x) => x.title).join(' | '));
    assert.ok(actions.some((x) => x.title === 'Code Scanner: Preview the Upgrade of lodash'));
    // Reviewed: the preview shows the change first.
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.previewFix', { folderUri: l.folderUri, issueId: l.issue.id }), true);
    await closeAllEditors();
    await vscode.window.showTextDocument(doc);
    assert.strictEqual(await vscode.commands.executeCommand(upgrade.command!.command, ...(upgrade.command!.arguments ?? [])), 1);
    assert.ok(doc.isDirty, 'edited, not saved');
    assert.match(doc.getText(), /"lodash": "\^4\.17\.21"/);
    assert.match(doc.getText(), /"minimist": "1\.2\.5"/, 'nothing else changed');
    await waitFor('the finding out of view', () => !a.issues().some((x) => x.issue.id === l.issue.id));
    await revert(uri);
    await waitFor('the finding back once the edit is thrown away', () => a.issues().some((x) => x.issue.id === l.issue.id));

    // A package the manifest does not name at a version it can edit: the version to copy.
    await injectIssues(scanId, [{ id: 'unclear', location: { path: MANIFEST }, severity: 'medium', cve: 'CVE-2024-0001', package: { name: 'left-pad', version: '1.0.0', ecosystem: 'npm', fix_version: '1.3.0' } }], 'dependency');
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.refreshResults'), true);
    const unclear = await waitFor('the injected finding', () => a.issues().find((x) => x.issue.id === 'dependency:unclear'));
    assert.strictEqual(unclear.issue.fix, undefined);
    const dd = await waitFor('its diagnostic', () => ourDiagnostics(uri).find((x) => x.code === 'dependency/CVE-2024-0001'));
    const copy = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, dd.range, vscode.CodeActionKind.QuickFix.value))
      .find((x) => x.command?.command === 'codeScanner.copyFixVersion');
    assert.ok(copy, 'Copy the Fixed Version');
    assert.strictEqual(await vscode.commands.executeCommand(copy.command!.command, ...(copy.command!.arguments ?? [])), '1.3.0');
    assert.strictEqual(await vscode.env.clipboard.readText(), '1.3.0');
  });
});
