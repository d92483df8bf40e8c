// Scan on save in the real editor: saves within a quiet moment become one partial scan of
// exactly the saved files, its findings replace only theirs, nothing pops up, and a file the
// selection leaves out (a credentials file) is never sent. A save that cannot be scanned says
// why in the status bar; the countdown counts down; with auto save on only the person's own
// saves are scanned; a repository that turns it on in its own settings is asked about first.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { adminScan, adminScans, api, clickNotification, setAnswerMode, closeAllEditors, fileUri, fixtureIssues, gitHelperOfHost, scan, serviceIssues, signIn, waitFor, workspaceRoot } from './helpers';

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
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
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

  /** Waits until scan on save has nothing waiting or running. */
  async function settled(): Promise<void> {
    const a = await api();
    await waitFor('scan on save to be idle', () => a.scanOnSaveState().kind === 'idle', 40_000);
  }

  test('a save that cannot be scanned says why in the status bar, and sends nothing', async function () {
    this.timeout(60_000);
    const a = await api();
    await config().update('scanOnSave', 'savedFiles', vscode.ConfigurationTarget.Global);
    await settled();
    await vscode.commands.executeCommand('codeScanner.signOut', { confirmed: true });
    try {
      const before = (await adminScans()).length;
      await appendAndSave('src/db.ts', '\n// saved while signed out\n');
      await waitFor('the status bar to say the save was not scanned', () => /save not scanned/.test(a.statusBar.text));
      assert.match(String((a.statusBar.tooltip as vscode.MarkdownString).value), /did not scan your last save\\: you are not signed in/);
      assert.match(a.statusBar.accessibilityInformation?.label ?? '', /did not scan your last save: you are not signed in/);
      await new Promise((r) => setTimeout(r, 2500));
      assert.strictEqual((await adminScans()).length, before, 'nothing was sent');
    } finally {
      await signIn();
    }
    await waitFor('the note to go once signed in again', () => !/save not scanned/.test(a.statusBar.text));
    await appendAndSave('src/db.ts', '\n// saved once signed in\n');
    await settled();
  });

  test('the countdown to the next scan counts down', async function () {
    this.timeout(60_000);
    const a = await api();
    await config().update('scanOnSaveMinInterval', 30, vscode.ConfigurationTarget.Global);
    await config().update('scanOnSave', 'savedFiles', vscode.ConfigurationTarget.Global);
    await settled();
    // The first save after a change of the interval goes soon; the next waits for the interval.
    await appendAndSave('src/db.ts', '\n// saved before the countdown\n');
    await waitFor('the first save to be scanned', () => a.scanOnSaveState().kind === 'scanning' || a.scanOnSaveState().kind === 'idle', 10_000);
    await settled();
    await appendAndSave('src/db.ts', '\n// saved for the countdown\n');
    const seconds = () => Number(/will be scanned in (\d+) s/.exec(String((a.statusBar.tooltip as vscode.MarkdownString | undefined)?.value ?? ''))?.[1] ?? NaN);
    const first = await waitFor('a countdown in the tooltip', () => seconds() > 3 && seconds());
    const later = await waitFor('the countdown to move', () => seconds() < first && seconds(), 5000);
    assert.ok(later < first, `${later} < ${first}`);
    // Off: the waiting save is dropped, the countdown ends.
    await config().update('scanOnSave', undefined, vscode.ConfigurationTarget.Global);
    await config().update('scanOnSaveMinInterval', 5, vscode.ConfigurationTarget.Global);
    await settled();
  });

  test('with auto save on, the editor\'s own saves are not scanned; a save the person makes is', async function () {
    this.timeout(60_000);
    const a = await api();
    await config().update('scanOnSave', 'savedFiles', vscode.ConfigurationTarget.Global);
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSaveDelay', 300, vscode.ConfigurationTarget.Global);
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    try {
      await settled();
      const before = (await adminScans()).length;
      const doc = await vscode.workspace.openTextDocument(fileUri('src/server.js'));
      await vscode.window.showTextDocument(doc);
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, doc.lineAt(doc.lineCount - 1).range.end, '\n// typed, saved by auto save\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      await waitFor('auto save to save it', () => !doc.isDirty, 5000);
      await new Promise((r) => setTimeout(r, 2500));
      assert.strictEqual(a.scanOnSaveState().kind, 'idle', 'nothing waits');
      assert.strictEqual((await adminScans()).length, before, 'nothing was sent');
      await appendAndSave('src/server.js', '\n// saved by the person\n');
      await waitFor('the person\'s save to be scanned', async () => (await adminScans()).length > before, 30_000);
    } finally {
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
      await files.update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
      await settled();
    }
  });

  test('a repository that turns scan on save on in its own settings is asked about before its first upload', async function () {
    this.timeout(60_000);
    const a = await api();
    await config().update('scanOnSave', undefined, vscode.ConfigurationTarget.Global);
    await settled();
    const folder = vscode.workspace.workspaceFolders!.find((f) => f.uri.fsPath === workspaceRoot())!;
    const settingsFile = fileUri('.vscode/settings.json').fsPath;
    await vscode.workspace.getConfiguration('codeScanner', folder).update('scanOnSave', 'savedFiles', vscode.ConfigurationTarget.WorkspaceFolder);
    try {
      const before = (await adminScans()).length;
      const seq = a.notifications().at(-1)?.seq ?? 0;
      await appendAndSave('src/pricing.js', '\n// saved where the repository turned scan on save on\n');
      const asked = await waitFor('the question', () => a.notifications(seq).find((n) => /This repository's settings .* turn on scan on save/.test(n.text)));
      assert.deepStrictEqual(asked.actions, ['Allow Scan on Save', 'Not in This Workspace']);
      assert.match(a.statusBar.text, /save not scanned/);
      await new Promise((r) => setTimeout(r, 2500));
      assert.strictEqual((await adminScans()).length, before, 'nothing is sent before the answer');
      const clicked = await clickNotification('Allow Scan on Save');
      if (clicked !== undefined) {
        assert.strictEqual(clicked, true, 'the question has its button');
        const scans = await waitFor('the allowed save to be scanned', async () => { const all = await adminScans(); return all.length > before && all.slice(before); }, 30_000);
        assert.deepStrictEqual(scans[0]!.filesToScan, ['src/pricing.js']);
      }
    } finally {
      await vscode.workspace.getConfiguration('codeScanner', folder).update('scanOnSave', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
      fs.rmSync(settingsFile, { force: true });
      fs.rmSync(fileUri('.vscode').fsPath, { recursive: true, force: true });
      await settled();
    }
  });

  test('a scan on save in progress has its own Cancel, from the status bar; the findings stay', async function () {
    this.timeout(90_000);
    const a = await api();
    await config().update('scanOnSaveMinInterval', 5, vscode.ConfigurationTarget.Global);
    await config().update('scanOnSave', 'savedFiles', vscode.ConfigurationTarget.Global);
    await settled();
    const before = fixtureIssues(a).map((l) => l.issue.id).sort();
    await setAnswerMode({ shapes: 'real', processingMs: 30_000 });
    try {
      await appendAndSave('src/db.ts', '\n// saved, then its scan cancelled\n');
      await waitFor('the scan of the saved file to wait on the service', () => a.scanOnSaveState().kind === 'scanning' && /the service/.test(a.statusBar.text), 30_000);
      assert.strictEqual(a.statusBar.command, 'codeScanner.showScanProgress');
      const seq = a.notifications().at(-1)?.seq ?? 0;
      // Not awaited: the command ends when its notification is answered.
      void vscode.commands.executeCommand(a.statusBar.command as string);
      const offered = await waitFor('the progress with Cancel', () => a.notifications(seq).find((n) => n.actions.includes('Cancel Scan')));
      assert.ok(offered, 'the scan of saved files can be cancelled');
      const clicked = await clickNotification('Cancel Scan');
      if (clicked === undefined) await vscode.commands.executeCommand('codeScanner.cancelScan');
      await waitFor('scan on save to stop', () => a.scanOnSaveState().kind !== 'scanning', 20_000);
      assert.deepStrictEqual(fixtureIssues(a).map((l) => l.issue.id).sort(), before, 'the findings stay');
    } finally {
      await setAnswerMode({ shapes: 'seed', processingMs: null });
      await config().update('scanOnSave', undefined, vscode.ConfigurationTarget.Global);
      await settled();
    }
  });
});
