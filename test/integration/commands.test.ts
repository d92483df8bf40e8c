// The running extension and its manifest agree: every contributed command is registered
// and every registered one is contributed, and the connection settings cannot be set by a
// repository. (What can be checked from package.json alone is a unit test:
// test/unit/editor/manifest.test.ts.)
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { EXTENSION_ID, api, waitFor, workspaceRoot } from './helpers';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    views: Record<string, { id: string }[]>;
  };
}

function manifest(): Manifest {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext);
  return ext.packageJSON as Manifest;
}

/** Commands VS Code generates for every contributed view (focus, move, hide ...). */
function isViewCommand(id: string, viewIds: string[]): boolean {
  return viewIds.some((v) => id.startsWith(`${v}.`) && /^(focus|resetViewLocation|toggleVisibility|removeView|open)$/.test(id.slice(v.length + 1)));
}

suite('editor: commands and settings', () => {
  suiteSetup(async () => { await api(); });

  test('registered commands match the contributed ones, both ways', async () => {
    const m = manifest();
    const contributed = m.contributes.commands.map((c) => c.command).sort();
    const viewIds = Object.values(m.contributes.views).flat().map((v) => v.id);
    const registered = (await vscode.commands.getCommands(true))
      .filter((c) => c.startsWith('codeScanner.') && !isViewCommand(c, viewIds))
      .sort();
    assert.deepStrictEqual(registered.filter((c) => !contributed.includes(c)), [], 'registered but not in package.json');
    assert.deepStrictEqual(contributed.filter((c) => !registered.includes(c)), [], 'in package.json but not registered');
    for (const id of ['codeScanner.signIn', 'codeScanner.signOut', 'codeScanner.scanWorkspace', 'codeScanner.scanOpenFiles',
      'codeScanner.scanChangedFiles', 'codeScanner.cancelScan', 'codeScanner.resumeUpload', 'codeScanner.refreshResults',
      'codeScanner.previewFix', 'codeScanner.applyFix', 'codeScanner.applyAllFixesInFile', 'codeScanner.copyDetails']) {
      assert.ok(contributed.includes(id), `${id} is missing`);
    }
  });

  test('a workspace cannot redirect the service URL (and so the token)', async () => {
    // Read as a scan of the folder does: its .vscode/settings.json is a folder-level layer.
    const config = () => vscode.workspace.getConfiguration('codeScanner', vscode.Uri.file(workspaceRoot()));
    const before = config().get<string>('customBaseUrl');
    assert.ok(before, 'the launcher sets codeScanner.customBaseUrl in user settings');
    await assert.rejects(
      Promise.resolve(config().update('customBaseUrl', 'https://attacker.example/api/v1', vscode.ConfigurationTarget.Workspace)),
      'VS Code must refuse to write an application setting to the workspace',
    );
    // A repository that ships .vscode/settings.json with the setting is ignored too.
    const dir = path.join(workspaceRoot(), '.vscode');
    const file = path.join(dir, 'settings.json');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ 'codeScanner.customBaseUrl': 'https://attacker.example/api/v1', 'codeScanner.region': 'eu', 'codeScanner.maxFileSizeMB': 3 }));
    try {
      // The folder's file is picked up by a file watcher: wait until its ordinary setting applies.
      await waitFor('the folder settings file to be read (ordinary settings apply)', () => config().get('maxFileSizeMB') === 3, 15_000);
      assert.strictEqual(config().get('customBaseUrl'), before);
      assert.strictEqual(config().get('region'), 'production');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
