// A verdict before a push stays across a reload while what it checked is unchanged, and an
// open details page comes back showing its finding (the checks after the reload are in
// zPushCheck.reloaded.ts).
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { CheckedFolder } from '../../src/editor/push/pushCheck';
import { FAST, api, fileUri, folderUriOf, signIn, waitFor, workspaceRoot } from './helpers';
import { KEPT_VERDICT, type KeptVerdict } from './keptVerdict';
import { RELOAD_FILE, requestReload } from './reload';

suite('editor: a verdict before a push, then a reload', () => {
  test('CI would block the staged eval; the window reloads (the verdict is checked after it)', async function () {
    if (!RELOAD_FILE) this.skip();
    this.timeout(90_000);
    const a = await api();
    await signIn();
    const path = 'src/format.ts';
    const original = fs.readFileSync(fileUri(path).fsPath, 'utf8');
    fs.writeFileSync(fileUri(path).fsPath, `${original}\nexport function run(input: string) {\n  return eval(input);\n}\n`);
    execFileSync('git', ['add', path], { cwd: workspaceRoot() });
    await vscode.workspace.getConfiguration('codeScanner').update('ciGate', '--fail-on CR', vscode.ConfigurationTarget.Global);
    const r = await vscode.commands.executeCommand<CheckedFolder[]>('codeScanner.checkStagedChanges', { ...FAST, confirmed: true });
    const mine = r?.find((c) => c.folderUri === folderUriOf(workspaceRoot()));
    assert.strictEqual(mine?.verdict.kind, 'blocked', mine?.text);
    await waitFor('the status bar to say so', () => /CI would block/.test(a.pushCheck.statusBar.text));
    // Its details page open too: VS Code brings the panel back after the reload, and it must not come back empty.
    const blocking = a.pushCheck.of(mine.folderUri)!.issues[0]!;
    assert.ok(await vscode.commands.executeCommand('codeScanner.showDetails', { folderUri: mine.folderUri, issueId: blocking.id }));
    await waitFor('the details page', () => a.details()?.ref.issueId === blocking.id);
    requestReload(KEPT_VERDICT, { folderUri: mine.folderUri, path, original, text: mine.text, details: blocking.id } satisfies KeptVerdict);
  });
});
