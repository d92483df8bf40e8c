// After the reload zPushCheck.test.ts asked for: the verdict and its blocking findings are
// back, unchanged, since the staged content is the same; a staged change marks it old.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { api, treeRootsOf, waitFor, workspaceRoot } from './helpers';
import { KEPT_VERDICT, type KeptVerdict } from './keptVerdict';
import { reloadRequest } from './reload';

suite('editor: after a reload with a verdict before a push', () => {
  test('the verdict and its Would block CI group are back while the staged content is the same', async function () {
    this.timeout(60_000);
    const asked = reloadRequest<KeptVerdict>(KEPT_VERDICT);
    assert.ok(asked, 'the first run left what to check');
    const a = await api();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: workspaceRoot() });
    try {
      // Signed in all along: from activation on, the status bar never said otherwise while the key was read.
      assert.ok(await a.hasStoredToken());
      await waitFor('the session to be known', () => a.statusBarShown().length > 1 || /issue|Scan/.test(a.statusBar.text));
      const kept = a.pushCheck.of(asked.folderUri);
      assert.strictEqual(kept?.verdict.kind, 'blocked');
      await waitFor('the status bar to say so', () => /CI would block/.test(a.pushCheck.statusBar.text));
      assert.deepStrictEqual(a.statusBarShown().filter((t) => /signed out|Sign in/i.test(t)), [], a.statusBarShown().join(' | '));
      assert.ok(treeRootsOf(a).some((n) => n.kind === 'group' && n.pushCheck), 'the Would block CI group is back');
      // The details page VS Code brought back shows its finding again, not an empty page.
      await waitFor('the details page of the same finding', () => a.details()?.ref.issueId === asked.details, 20_000);
      assert.match(a.details()!.html, /Eval Injection/);
      // Looked at against git after the reload: unchanged, so not marked old.
      await new Promise((r) => setTimeout(r, 2000));
      assert.ok(!a.pushCheck.of(asked.folderUri)?.outdated, 'the staged content is what was checked');
      git('reset', '-q');
      await waitFor('the verdict to be marked old once the index changes', () => a.pushCheck.of(asked.folderUri)?.outdated, 15_000);
    } finally {
      git('reset', '-q');
      fs.writeFileSync(vscode.Uri.joinPath(vscode.Uri.parse(asked.folderUri), ...asked.path.split('/')).fsPath, asked.original);
      await vscode.workspace.getConfiguration('codeScanner').update('ciGate', undefined, vscode.ConfigurationTarget.Global);
      // Nothing staged: a verdict without blocking rows, for what runs after.
      await vscode.commands.executeCommand('codeScanner.checkStagedChanges', { confirmed: true });
    }
  });
});
