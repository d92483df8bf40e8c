// Smoke test: the extension is installed in the real VS Code and activates.
import * as assert from 'assert';
import * as vscode from 'vscode';

const EXTENSION_ID = 'code-scanner.code-scanner-vscode';

suite('activation', () => {
  test('the extension is present', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded; installed: ${vscode.extensions.all.map((e) => e.id).join(', ')}`);
    assert.strictEqual(ext.packageJSON.name, 'code-scanner-vscode');
  });

  test('the extension activates without throwing', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  test('the fixture workspace is the open folder', () => {
    const expected = process.env.CODE_SCANNER_TEST_WORKSPACE;
    assert.ok(expected, 'CODE_SCANNER_TEST_WORKSPACE is not set: the launcher passes it via extensionEnvironment');
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.strictEqual(folders.length, 1);
    assert.strictEqual(folders[0].uri.fsPath, expected);
  });
});
