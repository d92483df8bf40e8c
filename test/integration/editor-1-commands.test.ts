// The manifest and the running extension agree: every contributed command is registered
// and every registered one is contributed, commands sit under one category, and the
// connection settings cannot be set by a repository.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { EXTENSION_ID, api, waitFor, workspaceRoot } from './helpers';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    views: Record<string, { id: string }[]>;
    configuration: { properties: Record<string, { scope?: string }> } | { properties: Record<string, { scope?: string }> }[];
    keybindings: { command: string; key: string; mac?: string }[];
    menus: { commandPalette: { command: string; when?: string }[] };
    walkthroughs: { steps: { media: { markdown?: string } }[] }[];
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

  test('every command is in the "Code Scanner" category and argument-only commands are hidden from the palette', () => {
    const m = manifest();
    for (const c of m.contributes.commands) assert.strictEqual(c.category, 'Code Scanner', c.command);
    const when = new Map(m.contributes.menus.commandPalette.map((e) => [e.command, e.when]));
    for (const id of ['codeScanner.previewFix', 'codeScanner.applyFix', 'codeScanner.copyDetails']) assert.strictEqual(when.get(id), 'false', id);
    assert.strictEqual(when.get('codeScanner.signOut'), 'codeScanner.signedIn');
    assert.match(when.get('codeScanner.scanWorkspace') ?? '', /isWorkspaceTrusted/);
    assert.match(when.get('codeScanner.cancelScan') ?? '', /codeScanner\.scanning/);
  });

  test('Scan Workspace has a keybinding', () => {
    const kb = manifest().contributes.keybindings.find((k) => k.command === 'codeScanner.scanWorkspace');
    assert.ok(kb, 'no keybinding for Scan Workspace');
    assert.strictEqual(kb.key, 'ctrl+alt+shift+s');
    assert.strictEqual(kb.mac, 'cmd+alt+shift+s');
  });

  test('the walkthrough media files exist', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const steps = manifest().contributes.walkthroughs.flatMap((w) => w.steps);
    assert.ok(steps.length >= 4);
    for (const s of steps) {
      assert.ok(s.media.markdown, 'each step has markdown media');
      assert.ok(fs.existsSync(path.join(ext.extensionPath, s.media.markdown)), s.media.markdown);
    }
  });

  test('region and custom base URL are application-scoped; other settings are ordinary', () => {
    const confs = manifest().contributes.configuration;
    const props = Object.assign({}, ...(Array.isArray(confs) ? confs : [confs]).map((c) => c.properties)) as Record<string, { scope?: string }>;
    assert.strictEqual(props['codeScanner.region'].scope, 'application');
    assert.strictEqual(props['codeScanner.customBaseUrl'].scope, 'application');
    for (const k of ['codeScanner.scanConfigs', 'codeScanner.excludeGlobs', 'codeScanner.maxFileSizeMB', 'codeScanner.uploadChunkSizeMB', 'codeScanner.hideFalsePositives']) {
      assert.ok(props[k], `${k} is contributed`);
      assert.notStrictEqual(props[k].scope, 'application', k);
    }
    // What a scan of one folder reads can differ per folder of a multi-root workspace.
    for (const k of ['codeScanner.scanConfigs', 'codeScanner.excludeGlobs', 'codeScanner.maxFileSizeMB', 'codeScanner.uploadChunkSizeMB']) {
      assert.strictEqual(props[k].scope, 'resource', k);
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
