// What only the real answer shapes bring (decisions.md): a finding the service sent that
// cannot be read is left out and counted in the view, a deprecation warning is shown once
// per session, the key goes in CORGEA-TOKEN and a transfer keeps its affinity cookie, scans
// go to the project CI's scans go to, and a retired API version (410) says to update the
// extension.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as vscode from 'vscode';
import {
  FAST, adminRequests, adminScan, api, closeAllEditors, fileUri, folderUriOf, injectIssues, scan, setAnswerMode, signIn, treeRootsOf, waitFor, workspaceRoot, type ScanSummary,
} from './helpers';

suite('editor: real answer shapes', () => {
  suiteSetup(async () => {
    await api();
    await setAnswerMode({ shapes: 'real', gone: false });
    await signIn();
  });

  suiteTeardown(async () => {
    await setAnswerMode({ shapes: 'seed', gone: false });
    await vscode.commands.executeCommand('codeScanner.groupBy', 'file');
    await vscode.commands.executeCommand('notifications.clearAll');
    await scan('codeScanner.scanWorkspace');
  });

  test('short urgency codes group as full words, most urgent first', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    await vscode.commands.executeCommand('codeScanner.groupBy', 'urgency');
    const labels = treeRootsOf(a).map((g) => String(a.issuesTree.getTreeItem(g).label));
    const order = ['Critical', 'High', 'Medium', 'Low'];
    assert.ok(labels.length >= 3, labels.join(', '));
    assert.ok(labels.every((l) => order.includes(l)), `full words: ${labels.join(', ')}`);
    assert.deepStrictEqual(labels, [...labels].sort((x, y) => order.indexOf(x) - order.indexOf(y)));
  });

  test('an unreadable finding is left out and counted; the other findings stay', async () => {
    const a = await api();
    const scanId = await scan('codeScanner.scanWorkspace');
    const before = a.issues().length;
    await injectIssues(scanId, [{ id: 'unreadable-1', location: null, urgency: 'CR' }]);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.refreshResults'), true);
    assert.strictEqual(a.issues().length, before, 'every readable finding is still shown');
    const message = await waitFor('the view to count the left-out finding', () => a.issuesTree.viewMessage);
    assert.match(message, /1 finding the service sent could not be read and is not shown/);
  });

  test('the service\'s deprecation warning is shown once per session, however many answers carry it', async () => {
    const a = await api();
    await vscode.commands.executeCommand('codeScanner.refreshResults');
    await vscode.commands.executeCommand('codeScanner.refreshResults');
    // Once per session: earlier suites ran in seed shapes, which carry no such warning.
    const shown = a.notifications().filter((n) => n.severity === 'warning' && n.text.includes('deprecated'));
    assert.strictEqual(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0].text, /API v1 is deprecated/);
  });

  test('spoken to as its own clients speak: the key in CORGEA-TOKEN, the transfer\'s cookie, scans in the project CI uses', async function () {
    this.timeout(90_000);
    const a = await api();
    const root = workspaceRoot();
    execFileSync('git', ['remote', 'add', 'origin', 'https://github.com/acme/payments-api.git'], { cwd: root });
    try {
      // Signing in works although this service reads the key from CORGEA-TOKEN only.
      await signIn();
      const since = new Date().toISOString();
      const full = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', FAST);
      const folder = full?.folders.find((f) => f.folder === 'order-service');
      assert.ok(folder?.scanId && !full?.error, JSON.stringify(full));
      assert.strictEqual(folder.project, 'payments-api');
      const record = await adminScan(folder.scanId);
      assert.strictEqual(record.formParts.project_name, 'payments-api', 'the project CI scans go to');
      assert.strictEqual(record.archiveName, 'payments-api.zip');
      // Every chunk reached the instance that started the transfer: none was refused, none restarted.
      const calls = (await adminRequests()).filter((c) => c.at >= since);
      assert.ok(calls.filter((c) => c.route === 'patchChunk').every((c) => c.status === 200), JSON.stringify(calls));
      assert.strictEqual(calls.filter((c) => c.route === 'startScan').length, full!.folders.filter((f) => f.scanId).length, 'one transfer per folder');
      // The folder node names the project (several folders: each names its own).
      const node = a.issuesTree.getChildren().find((n) => n.kind === 'folder' && n.folderUri === folderUriOf(root));
      assert.ok(node, 'a folder node');
      assert.match(String(a.issuesTree.getTreeItem(node).description), /project payments-api/);

      await vscode.window.showTextDocument(fileUri('src/db.ts'), { preview: false });
      const partialId = await scan('codeScanner.scanOpenFiles');
      const partial = await adminScan(partialId);
      assert.strictEqual(partial.formParts.dirty, 'true', 'a partial scan is never the commit');
      assert.strictEqual(partial.formParts.project_name, 'payments-api');
      const preview = await vscode.commands.executeCommand<{ folders: { folder: string; project: string }[] }>('codeScanner.previewUpload');
      assert.strictEqual(preview?.folders.find((f) => f.folder === 'order-service')?.project, 'payments-api');
      await vscode.commands.executeCommand('codeScanner.closeUploadPreview');
    } finally {
      execFileSync('git', ['remote', 'remove', 'origin'], { cwd: root });
      await closeAllEditors();
    }
  });

  test('a retired API version (410) says to update the extension, without retrying', async () => {
    const a = await api();
    await setAnswerMode({ gone: true });
    try {
      assert.strictEqual(await vscode.commands.executeCommand('codeScanner.refreshResults'), false);
      const shown = await waitFor('the 410 message', () => [...a.notifications()].reverse().find((n) => /no longer supported/.test(n.text)));
      assert.strictEqual(shown.severity, 'error');
      assert.ok(shown.actions.includes('Show Extension'), shown.actions.join(', '));
    } finally {
      await setAnswerMode({ gone: false });
    }
  });
});
