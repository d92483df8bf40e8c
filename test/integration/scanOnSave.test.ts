// Scan on save in the real editor: saves within a quiet moment become one partial scan of
// exactly the saved files, its findings replace only theirs, nothing pops up, and a file the
// selection leaves out (a credentials file) is never sent.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { adminScan, adminScans, api, closeAllEditors, fileUri, fixtureIssues, gitHelperOfHost, scan, serviceIssues, signIn, waitFor } from './helpers';

async function appendAndSave(rel: string, text: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(fileUri(rel));
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, doc.lineAt(doc.lineCount - 1).range.end, text);
  assert.ok(await vscode.workspace.applyEdit(edit));
  assert.ok(await doc.save(), `${rel} saved`);
}

suite('editor: scan on save', () => {
  const originals = new Map<string, string>();
  const config = () => vscode.workspace.getConfiguration('codeScanner');

  suiteSetup(async () => {
    await api();
    await signIn();
    for (const rel of ['src/server.js', 'src/db.ts', 'src/pricing.js']) originals.set(rel, fs.readFileSync(fileUri(rel).fsPath, 'utf8'));
  });

  suiteTeardown(async () => {
    await config().update('scanOnSave', undefined, vscode.ConfigurationTarget.Global);
    await config().update('scanOnSaveMinInterval', undefined, vscode.ConfigurationTarget.Global);
    await closeAllEditors();
    for (const [rel, text] of originals) fs.writeFileSync(fileUri(rel).fsPath, text);
    fs.rmSync(fileUri('config/.env').fsPath, { force: true });
    fs.rmSync(fileUri('config').fsPath, { recursive: true, force: true });
  });

  test('off by default: a save sends nothing', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const before = (await adminScans()).length;
    await appendAndSave('src/db.ts', '\n// saved while scan on save is off\n');
    await new Promise((r) => setTimeout(r, 2500));
    assert.strictEqual((await adminScans()).length, before);
    assert.strictEqual(a.scanOnSaveState().kind, 'idle');
  });

  test('saves within a quiet moment make one partial scan of the saved files; its findings replace only theirs, without a notification', async function () {
    this.timeout(60_000);
    const a = await api();
    await config().update('scanOnSaveMinInterval', 5, vscode.ConfigurationTarget.Global);
    await config().update('scanOnSave', 'savedFiles', vscode.ConfigurationTarget.Global);
    await scan('codeScanner.scanWorkspace');
    // git's helper process (Linux) let go, as after its idle time: the save starts it again,
    // in time for its scan to run git from it.
    const linux = process.platform === 'linux';
    if (linux) {
      a.letGitHelperGo();
      await waitFor('git\'s helper to go', () => gitHelperOfHost() === undefined);
    }
    const saved = ['src/server.js', 'src/db.ts'];
    const others = fixtureIssues(a).filter((l) => !saved.includes(l.issue.path)).map((l) => l.issue.id).sort();
    const before = (await adminScans()).length;
    const seq = a.notifications().at(-1)?.seq ?? 0;
    await appendAndSave('src/server.js', '\n// saved once\n');
    await appendAndSave('src/db.ts', '\n// saved once\n');
    if (linux) await waitFor('git\'s helper started while the saves wait for a quiet moment', () => gitHelperOfHost() !== undefined && a.scanOnSaveState().kind === 'waiting');
    // The status bar says, discreetly, what waits.
    await waitFor('the status bar to say saved files wait', () => /saved file/.test(a.statusBar.text) || /saved file/.test(a.statusBar.accessibilityInformation?.label ?? ''), 3000)
      .catch(() => undefined); // the quiet moment may already be over on a fast machine
    const scans = await waitFor('one scan of the saved files', async () => {
      const all = await adminScans();
      return all.length > before && a.scanOnSaveState().kind === 'idle' && all.slice(before);
    }, 40_000);
    assert.strictEqual(scans.length, 1, 'one scan for both saves');
    const record = await adminScan(scans[0]!.id);
    assert.strictEqual(record.partial, true);
    assert.deepStrictEqual([...record.filesToScan].sort(), [...saved].sort());
    await waitFor('the scan\'s findings', () => a.folderState(fixtureIssues(a)[0]?.folderUri ?? '')?.scans.some((s) => s.scanId === record.id), 20_000);
    const fresh = (await serviceIssues(record.id)).map((i) => String(i.id)).sort();
    const shown = fixtureIssues(a);
    assert.deepStrictEqual(shown.filter((l) => saved.includes(l.issue.path)).map((l) => l.issue.id).sort(), fresh, 'the saved files\' findings are the scan\'s');
    assert.deepStrictEqual(shown.filter((l) => !saved.includes(l.issue.path)).map((l) => l.issue.id).sort(), others, 'other files\' findings stay');
    assert.deepStrictEqual(a.notifications(seq).map((n) => n.text), [], 'no notification per save');
  });

  test('a credentials file saved with a source file is never sent', async function () {
    this.timeout(60_000);
    const a = await api();
    fs.mkdirSync(fileUri('config').fsPath, { recursive: true });
    fs.writeFileSync(fileUri('config/.env').fsPath, 'API_SECRET=placeholder\n');
    const before = (await adminScans()).length;
    await appendAndSave('config/.env', 'OTHER_SECRET=placeholder\n');
    await appendAndSave('src/pricing.js', '\n// saved with a credentials file\n');
    const scans = await waitFor('the scan of the saved files', async () => {
      const all = await adminScans();
      return all.length > before && a.scanOnSaveState().kind === 'idle' && all.slice(before);
    }, 40_000);
    const record = await adminScan(scans[0]!.id);
    assert.deepStrictEqual(record.filesToScan, ['src/pricing.js']);
    assert.ok(!record.files.some((f) => f.includes('.env')), record.files.join(', '));
  });
});
