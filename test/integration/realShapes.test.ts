// What only the real answer shapes bring (decisions.md): a finding the service sent that
// cannot be read is left out and counted in the view, a deprecation warning is shown once
// per session, and a retired API version (410) says to update the extension.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, injectIssues, scan, setAnswerMode, signIn, treeRootsOf, waitFor } from './helpers';

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
