// A fix applied and saved keeps its finding out across a reload, while the saved file has
// the fix (the check, and the old text brought back after it, are in zKeptFix.reloaded.ts).
// Named to run after every test that reads the fixture's files as they are: the file stays
// fixed until the reload.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { api, fixtureIssues, signIn, waitFor } from './helpers';
import { KEPT_FIX, type KeptFix } from './keptFix';
import { RELOAD_FILE, requestReload } from './reload';

suite('editor: a fix saved before a reload', () => {
  test('the fix is applied and saved; the window reloads (its finding is checked after the reload)', async function () {
    if (!RELOAD_FILE) this.skip();
    const a = await api();
    await signIn();
    if (!fixtureIssues(a).some((l) => l.issue.path === 'src/pricing.js' && l.issue.fix)) await vscode.commands.executeCommand('codeScanner.scanWorkspace', { pollIntervalMs: 400, maxPolls: 60 });
    const l = fixtureIssues(a).find((x) => x.issue.path === 'src/pricing.js' && x.issue.fix);
    assert.ok(l, 'pricing.js has a fixable finding');
    const original = fs.readFileSync(l.uri.fsPath, 'utf8');
    const doc = await vscode.workspace.openTextDocument(l.uri);
    await vscode.window.showTextDocument(doc);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id }), 1);
    await doc.save();
    await waitFor('the finding out of view', () => !a.issues().some((x) => x.issue.id === l.issue.id));
    requestReload(KEPT_FIX, { folderUri: l.folderUri, issueId: l.issue.id, path: l.issue.path, original } satisfies KeptFix);
  });
});
