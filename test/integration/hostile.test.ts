// Hostile input in a real VS Code: server text and file names reach notifications only as
// text (never as links that run commands), a fix from the service writes only files that
// its scan uploaded and that really lie inside the folder, and the token is not sent to a
// service address it was not verified with.
import * as assert from 'assert';
import { createTwoFilesPatch } from 'diff';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import * as vscode from 'vscode';
import { NOTIFICATION_LINK } from '../../src/core/text/untrusted';
import {
  api, closeAllEditors, fault, folderUriOf, injectIssues, revert, scan, signIn, visibleToasts, waitFor, workspaceRoot,
} from './helpers';

function hasLink(text: string): boolean {
  return new RegExp(NOTIFICATION_LINK.source, NOTIFICATION_LINK.flags).test(text);
}

/** The last notification the extension showed whose text contains `needle`. */
async function shownWith(needle: string) {
  const a = await api();
  return waitFor(`a notification mentioning ${needle}`, () => [...a.notifications()].reverse().find((n) => n.text.includes(needle)));
}

/** Checks what the workbench rendered for the toast containing `needle`: the text, and no link. */
async function assertToastHasNoLink(needle: string): Promise<void> {
  const first = await visibleToasts();
  if (first === undefined) return; // desktop launcher: the shown text was checked instead
  const toast = await waitFor(`a toast mentioning ${needle}`, async () => (await visibleToasts())?.find((t) => t.text.includes(needle)));
  assert.deepStrictEqual(toast.links, [], `the toast rendered links: ${JSON.stringify(toast)}`);
}

function write(abs: string, text: string): void {
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

/** A unified diff of one file, as the service sends it, that applies to `before`. */
function diffFor(rel: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${rel}`, `b/${rel}`, before, after);
}

function hostileIssue(rel: string, diff: string) {
  return {
    id: `hostile-${rel}`,
    classification: { id: 'CWE-480', name: 'Use of Incorrect Operator', description: 'injected by the test' },
    urgency: 'high',
    status: 'open',
    location: { file: { name: path.posix.basename(rel), path: rel, language: 'JavaScript' }, project: { name: 'order-service' }, line_number: 1 },
    auto_fix_suggestion: { id: `fix-${rel}`, status: 'fix_available', patch: { diff, explanation: 'injected fix' } },
  };
}

suite('hostile input', () => {
  const created: string[] = [];

  suiteSetup(async () => {
    await api();
    await signIn();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
    await closeAllEditors();
  });

  suiteTeardown(async () => {
    for (const p of created.reverse()) fs.rmSync(p, { recursive: true, force: true });
    await scan('codeScanner.scanWorkspace');
  });

  test('the workbench probe sees a link in a notification that has one (control)', async function () {
    if (!process.env.CODE_SCANNER_TEST_WORKBENCH_PROBE) this.skip();
    void vscode.window.showInformationMessage('Probe control: [a link](https://example.invalid/probe)');
    const toast = await waitFor('the control toast', async () => (await visibleToasts())?.find((t) => t.text.includes('Probe control')));
    assert.strictEqual(toast.links.length, 1, JSON.stringify(toast));
  });

  test('a hostile error body from the service is shown as text, not as links', async () => {
    const body = 'Denied. [Open the guide](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22id%5Cn%22%7D) '
      + 'or [the docs](https://evil.example/) or [this](file:///etc/passwd)';
    await fault({ action: 'failNext', route: 'roles', status: 403, body: { error: body } });
    const outcome = await vscode.commands.executeCommand<{ ok: boolean; kind?: string }>('codeScanner.showCompanyRoles');
    assert.strictEqual(outcome?.ok, false);
    assert.strictEqual(outcome?.kind, 'forbidden');
    const shown = await shownWith('Open the guide');
    assert.strictEqual(shown.severity, 'error');
    assert.ok(!hasLink(shown.text), `the notification text still holds a link: ${shown.text}`);
    assert.ok(hasLink(body), 'the test body itself is link syntax');
    await assertToastHasNoLink('Open the guide');
  });

  test('a hostile file name in a refusal is shown as text, not as a link', async () => {
    const rel = '[Open guide](command:codeScanner.signOut).js';
    const abs = path.join(workspaceRoot(), rel);
    write(abs, 'if (left == right) {\n  run();\n}\n');
    created.push(abs);
    await scan('codeScanner.scanWorkspace');
    const a = await api();
    const l = await waitFor('a fixable finding in the hostile file', () => a.issues().find((x) => x.issue.path === rel && x.issue.fix));
    const doc = await vscode.workspace.openTextDocument(l.uri);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((b) => b.replace(doc.lineAt(0).range, 'if (left == right && ready) {'));
    const applied = await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id });
    assert.strictEqual(applied, 0, 'the fix no longer applies');
    const shown = await shownWith('Open guide');
    assert.ok(!hasLink(shown.text), `the notification text still holds a link: ${shown.text}`);
    await assertToastHasNoLink('Open guide');
    assert.strictEqual(await a.hasStoredToken(), true, 'still signed in');
    await revert(l.uri);
  });

  test('fixes never write files the scan did not upload, or outside the folder', async () => {
    const root = workspaceRoot();
    const outside = path.join(path.dirname(root), 'outside');
    const victim = 'if (a == b) {\n  go();\n}\n';
    write(path.join(outside, 'victim.js'), victim);
    created.push(outside);
    fs.symlinkSync('../outside', path.join(root, 'link'));
    created.push(path.join(root, 'link'));
    const tasks = '{\n  "version": "2.0.0",\n  "tasks": []\n}\n';
    write(path.join(root, '.vscode', 'tasks.json'), tasks);
    created.push(path.join(root, '.vscode'));
    write(path.join(root, 'node_modules', 'evil', 'index.js'), victim);
    created.push(path.join(root, 'node_modules'));
    const gitConfig = fs.readFileSync(path.join(root, '.git', 'config'), 'utf8');

    const scanId = await scan('codeScanner.scanWorkspace');
    const targets: [string, string, string][] = [
      ['.git/config', gitConfig, `${gitConfig}[core]\n\tfsmonitor = touch /tmp/pwned-by-fix\n`],
      ['.vscode/tasks.json', tasks, tasks.replace('"tasks": []', '"tasks": [{ "label": "x", "type": "shell", "command": "id", "runOptions": { "runOn": "folderOpen" } }]')],
      ['node_modules/evil/index.js', victim, victim.replace('==', '===')],
      ['link/victim.js', victim, victim.replace('==', '===')],
    ];
    await injectIssues(scanId, targets.map(([rel, before, after]) => hostileIssue(rel, diffFor(rel, before, after))));
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.refreshResults'), true);
    const a = await api();
    const folderUri = folderUriOf(root);
    for (const [rel, before] of targets) {
      const l = a.issues().find((x) => x.issue.path === rel && x.issue.id === `hostile-${rel}`);
      if (l) {
        assert.strictEqual(l.issue.inArchive, false, `${rel} was not uploaded`);
        const applied = await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri, issueId: l.issue.id });
        assert.strictEqual(applied, 0, `the fix for ${rel} was refused`);
      }
      const onDisk = rel === 'link/victim.js' ? fs.readFileSync(path.join(outside, 'victim.js'), 'utf8') : fs.readFileSync(path.join(root, ...rel.split('/')), 'utf8');
      assert.strictEqual(onDisk, before, `${rel} is unchanged`);
      const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === path.join(root, ...rel.split('/')));
      assert.ok(!open?.isDirty, `${rel} has no unsaved edit`);
    }
    const shownFor = a.issues().filter((x) => x.issue.id.startsWith('hostile-'));
    assert.ok(shownFor.some((x) => x.issue.path === '.vscode/tasks.json'), 'findings outside the archive are still listed');
  });

  test('a folder replaced by a link after the scan: its fix is refused when applied', async () => {
    const root = workspaceRoot();
    const rel = 'swap/target.js';
    const text = 'if (x == y) {\n  go();\n}\n';
    write(path.join(root, rel), text);
    created.push(path.join(root, 'swap'), path.join(root, 'swap-old'));
    const elsewhere = path.join(path.dirname(root), 'elsewhere');
    write(path.join(elsewhere, 'target.js'), text);
    created.push(elsewhere);
    await scan('codeScanner.scanWorkspace');
    const a = await api();
    const l = await waitFor('a fixable finding in swap/target.js', () => a.issues().find((x) => x.issue.path === rel && x.issue.fix));
    assert.strictEqual(l.issue.inArchive, true);
    fs.renameSync(path.join(root, 'swap'), path.join(root, 'swap-old'));
    fs.symlinkSync('../elsewhere', path.join(root, 'swap'));
    const applied = await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id });
    assert.strictEqual(applied, 0);
    assert.strictEqual(fs.readFileSync(path.join(elsewhere, 'target.js'), 'utf8'), text, 'the file outside is unchanged');
    const shown = await shownWith('outside the workspace folder');
    assert.strictEqual(shown.severity, 'error');
  });

  test('the token goes only to the address it was verified with', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const recorder = http.createServer((req, res) => { seen.push(req.headers); res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"status":"ok"}'); });
    await new Promise<void>((r) => recorder.listen(0, '127.0.0.1', () => r()));
    const config = vscode.workspace.getConfiguration('codeScanner');
    const original = config.inspect<string>('customBaseUrl')?.globalValue;
    const port = (recorder.address() as { port: number }).port;
    try {
      await config.update('customBaseUrl', `http://127.0.0.1:${port}/api/v1`, vscode.ConfigurationTarget.Global);
      const outcome = await vscode.commands.executeCommand<{ ok: boolean; kind?: string }>('codeScanner.showCompanyRoles');
      assert.strictEqual(outcome?.ok, false);
      const offer = await shownWith('service address changed');
      assert.strictEqual(offer.severity, 'warning');
      assert.ok(offer.actions.some((t) => t.startsWith('Use My API Key')), offer.actions.join(', '));
      assert.strictEqual(seen.length, 0, `requests reached the new address: ${JSON.stringify(seen)}`);
    } finally {
      await config.update('customBaseUrl', original, vscode.ConfigurationTarget.Global);
      recorder.close();
    }
    const again = await vscode.commands.executeCommand<{ ok: boolean }>('codeScanner.showCompanyRoles');
    assert.strictEqual(again?.ok, true, 'back at the verified address, the token is used again');
  });
});
