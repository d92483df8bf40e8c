// Restricted Mode, in a VS Code that asks about workspace trust, on a repository nobody
// trusted whose .git/config names a program git would start (core.fsmonitor: a tripwire
// that leaves a file behind). Nothing of the extension may start git there: Preview Upload
// chooses the files without it and says so; scanning is refused with why.
import * as assert from 'assert';
import * as fs from 'fs';
import { execFileSync } from 'child_process';
import * as vscode from 'vscode';
import type { UploadPreviewSummary } from '../../src/editor/scan/uploadPreview';
import { adminScans, api, env, fileUri, waitFor, workspaceRoot } from './helpers';

const tripwire = () => env('CODE_SCANNER_TEST_TRIPWIRE');

suite('editor: Restricted Mode runs no program the repository names', () => {
  test('the folder is not trusted, and the tripwire works: git itself, asked plainly, runs it', () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    try { execFileSync('git', ['status', '--porcelain'], { cwd: workspaceRoot(), stdio: 'ignore' }); } catch { /* the hook exits 1 */ }
    assert.ok(fs.existsSync(tripwire()), 'git status started core.fsmonitor');
    fs.rmSync(tripwire());
  });

  test('the extension starts without git; Preview Upload chooses the files by the .gitignore files and says so', async () => {
    await api();
    const summary = await vscode.commands.executeCommand<UploadPreviewSummary>('codeScanner.previewUpload');
    const files = summary?.folders[0]?.files ?? [];
    assert.ok(files.includes('src/db.ts') && files.includes('scripts/report.py'), files.join(', '));
    assert.ok(!files.some((f) => f.startsWith('.git/')), 'no git internals');
    assert.match(summary?.message ?? '', /Restricted Mode: files were chosen without running git/);
    await new Promise((r) => setTimeout(r, 500));
    assert.strictEqual(fs.existsSync(tripwire()), false, 'no git process of ours ran');
  });

  test('the status bar says why there is no Scan button, and leads to workspace trust', async () => {
    const a = await api();
    assert.strictEqual(a.statusBar.text, '$(workspace-untrusted) Scan needs trust');
    assert.strictEqual(a.statusBar.command, 'workbench.trust.manage');
    assert.match(String((a.statusBar.tooltip as vscode.MarkdownString).value), /needs a trusted workspace/);
    assert.strictEqual(a.statusBar.accessibilityInformation?.label, 'Code Scanner: scanning needs a trusted workspace');
  });

  test('Scan Workspace is refused with why, before anything runs', async () => {
    const a = await api();
    const earlier = a.notifications().at(-1)?.seq ?? 0;
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.scanWorkspace', { confirmed: true }), undefined);
    const said = a.notifications(earlier).find((n) => /needs a trusted workspace/.test(n.text));
    assert.ok(said, JSON.stringify(a.notifications(earlier)));
    assert.ok(said.actions.includes('Manage Workspace Trust'));
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.scanChangedFiles', { confirmed: true }), undefined);
    assert.strictEqual(fs.existsSync(tripwire()), false, 'no git process of ours ran');
  });

  test('scan on save sends nothing: the save is held, and the status bar says why', async function () {
    this.timeout(30_000);
    const a = await api();
    const config = vscode.workspace.getConfiguration('codeScanner');
    await config.update('scanOnSave', 'savedFiles', vscode.ConfigurationTarget.Global);
    const file = fileUri('src/db.ts');
    const original = fs.readFileSync(file.fsPath, 'utf8');
    try {
      const before = (await adminScans()).length;
      const doc = await vscode.workspace.openTextDocument(file);
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, doc.lineAt(doc.lineCount - 1).range.end, '\n// saved in Restricted Mode\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await doc.save());
      await waitFor('the status bar to say the save was not scanned', () => /Restricted Mode/.test(a.statusBar.accessibilityInformation?.label ?? ''));
      await new Promise((r) => setTimeout(r, 2500));
      assert.strictEqual(a.scanOnSaveState().kind, 'idle', 'nothing waits to be sent');
      assert.strictEqual((await adminScans()).length, before, 'nothing was sent');
      assert.strictEqual(fs.existsSync(tripwire()), false, 'no git process of ours ran');
    } finally {
      await config.update('scanOnSave', undefined, vscode.ConfigurationTarget.Global);
      fs.writeFileSync(file.fsPath, original);
    }
  });
});
