// Smoke test: the extension is installed in the real VS Code and activates.
import * as assert from 'assert';
import * as vscode from 'vscode';

import { EXTENSION_ID } from './helpers';

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

  test('a multi-root workspace is open: the fixture first, then the second folder', () => {
    const expected = [process.env.CODE_SCANNER_TEST_WORKSPACE, process.env.CODE_SCANNER_TEST_SECOND_FOLDER];
    assert.ok(expected.every(Boolean), 'CODE_SCANNER_TEST_WORKSPACE/_SECOND_FOLDER are not set: the launcher passes them via extensionEnvironment');
    assert.ok(vscode.workspace.workspaceFile?.path.endsWith('.code-workspace'), `opened ${vscode.workspace.workspaceFile}`);
    assert.deepStrictEqual((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), expected);
  });
});
