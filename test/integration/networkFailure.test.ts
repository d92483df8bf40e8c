// A network that fails mid-scan, as a person meets it: the failure is said once for every
// folder it stopped, the retries are one budget (never a loop around a loop), the findings
// stay, and once the service is back the next scan leaves no stale words behind.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ScanSummary } from '../../src/editor/scan/scanController';
import { FAST, adminRequests, api, fault, scan, signIn } from './helpers';

suite('editor: a network that fails during a scan', () => {
  suiteSetup(async () => {
    await api();
    await signIn();
    await scan('codeScanner.scanWorkspace');
  });

  suiteTeardown(() => fault({ action: 'clear' }));

  test('the connection drops at every upload: said once, one retry budget, findings kept; the next scan clears it', async function () {
    this.timeout(120_000);
    const a = await api();
    const before = a.issues().map((l) => l.issue.id).sort();
    const seq = a.notifications().at(-1)?.seq ?? 0;
    const since = new Date().toISOString();
    for (const route of ['startScan', 'headTransfer', 'patchChunk']) await fault({ action: 'resetNext', route, count: 1000 });
    const result = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', { ...FAST, retryBaseDelayMs: 50 });
    assert.strictEqual(result?.error?.kind, 'network', JSON.stringify(result));
    const errors = a.notifications(seq).filter((n) => n.severity === 'error');
    assert.strictEqual(errors.length, 1, `one message for both folders: ${JSON.stringify(errors)}`);
    assert.match(errors[0].text, /Could not reach the service/);
    // Each folder: one quiet try while packaging (openTransfer), then the upload's own try and
    // its five retries (the engine's budget), nothing more: no loop around a loop.
    const starts = (await adminRequests()).filter((r) => r.at >= since && r.route === 'startScan');
    assert.strictEqual(starts.length, 2 * (1 + 1 + 5), JSON.stringify(starts.map((r) => r.status)));
    const view = a.issuesTree.viewMessage ?? '';
    assert.strictEqual(view.split('Could not reach the service').length, 2, `the view says it once: ${view}`);
    assert.ok(!view.includes('..'), view);
    assert.match(view, /order-service and ops-tools: The last scan \(.+\) stopped: Could not reach the service/);
    assert.deepStrictEqual(a.issues().map((l) => l.issue.id).sort(), before, 'the findings stay');
    await fault({ action: 'clear' });
    await scan('codeScanner.scanWorkspace');
    assert.ok(!/stopped|Could not reach/.test(a.issuesTree.viewMessage ?? ''), `no stale words once the service is back: ${a.issuesTree.viewMessage}`);
  });
});
