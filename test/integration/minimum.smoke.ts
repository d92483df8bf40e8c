// The smoke part, in the oldest VS Code the extension supports (engines.vscode: code-server
// 4.96.4, VS Code 1.96): it activates without an error, signs in, scans the workspace and
// the open files with findings in the tree and Problems, shows a hover and the details,
// previews and applies a fix, previews the upload and scans a save; every API the extension
// uses is there (the agent tools too), so the log says nothing is absent.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { adminScans, api, closeAllEditors, fileUri, fixtureIssues, logText, ourDiagnostics, revert, scan, signIn, treeRootsOf, waitFor } from './helpers';

// Its window runs beside the main one at a quarter of its CPU weight: a first scan there took
// over a minute once, the extension host starved ("unresponsive") while the main window worked.
const SLOW = 150_000;

suite('the oldest supported VS Code (smoke)', () => {
  const originals = new Map<string, string>();

  suiteSetup(() => {
    for (const f of ['src/db.ts', 'src/server.js']) originals.set(f, fs.readFileSync(fileUri(f).fsPath, 'utf8'));
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('codeScanner').update('scanOnSave', undefined, vscode.ConfigurationTarget.Global);
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) await revert(doc.uri);
    await closeAllEditors();
    for (const [f, text] of originals) fs.writeFileSync(fileUri(f).fsPath, text);
  });

  test('it runs in VS Code 1.96 and activates with every API it uses there, with no error', async () => {
    assert.match(vscode.version, /^1\.96\./, `this window is VS Code ${vscode.version}`);
    const a = await api();
    await signIn();
    const log = await logText();
    // 1.96 has the language model tools and models: nothing is absent, so nothing is said of it.
    assert.doesNotMatch(log, /VS Code 1\.96\.\d+ has no /);
    assert.ok(vscode.lm.tools.some((t) => t.name === 'codeScanner_listFindings'), 'the agent tools are there');
    assert.ok(!a.notifications().some((n) => n.severity === 'error'), JSON.stringify(a.notifications()));
  });

  test('a full and a partial scan: findings in the tree and Problems', async function () {
    this.timeout(SLOW);
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    assert.ok(fixtureIssues(a).length >= 5);
    assert.ok(treeRootsOf(a).length > 0, 'the tree lists them');
    const db = fixtureIssues(a).find((l) => l.issue.path === 'src/db.ts')!;
    await waitFor('Problems', () => ourDiagnostics(db.uri).length > 0);
    await vscode.window.showTextDocument(fileUri('src/db.ts'));
    await scan('codeScanner.scanOpenFiles');
    assert.ok(fixtureIssues(a).some((l) => l.issue.path === 'src/db.ts'));
  });

  test('hover and details of a finding; a fix previewed and applied', async function () {
    this.timeout(SLOW);
    const a = await api();
    const l = fixtureIssues(a).find((x) => x.issue.fix && x.issue.inArchive && x.issue.range)!;
    assert.ok(l, 'a fixable finding');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', l.uri, l.issue.range!.start);
    // The title is the diagnostic's own hover; ours adds the facts and the way to the details.
    const md = hovers.flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')).join('\n');
    assert.match(md, /Urgency/);
    assert.match(md, /command:codeScanner\.showDetails/);
    assert.ok(await vscode.commands.executeCommand('codeScanner.showDetails', { folderUri: l.folderUri, issueId: l.issue.id }));
    assert.match(a.details()?.html ?? '', /Apply Fix/);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.previewFix', { folderUri: l.folderUri, issueId: l.issue.id }), true);
    const doc = await vscode.workspace.openTextDocument(l.uri);
    const before = doc.getText();
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id }), 1);
    assert.notStrictEqual(doc.getText(), before);
    await waitFor('the fixed finding to leave', () => !a.issues().some((x) => x.issue.id === l.issue.id));
    await revert(l.uri);
    await waitFor('the finding back once the fix is thrown away', () => a.issues().some((x) => x.issue.id === l.issue.id));
  });

  test('Upload Preview, and a save scanned by itself', async function () {
    this.timeout(SLOW);
    const preview = await vscode.commands.executeCommand<{ folders: { files: string[] }[] }>('codeScanner.previewUpload');
    assert.ok(preview.folders[0]!.files.includes('src/db.ts'));
    await vscode.workspace.getConfiguration('codeScanner').update('scanOnSave', 'savedFiles', vscode.ConfigurationTarget.Global);
    const before = (await adminScans()).length;
    const doc = await vscode.workspace.openTextDocument(fileUri('src/server.js'));
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, doc.lineAt(doc.lineCount - 1).range.end, '\n// saved in VS Code 1.96\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    const scans = await waitFor('the save\'s scan', async () => { const all = await adminScans(); return all.length > before && all.slice(before); }, 30_000);
    assert.deepStrictEqual(scans[0]!.filesToScan, ['src/server.js']);
  });
});
