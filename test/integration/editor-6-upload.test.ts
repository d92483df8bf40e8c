// Upload control from the editor: Cancel Scan stops a running upload and leaves nothing to
// resume; an upload the service keeps failing is interrupted, kept, and Resume Upload
// finishes it from the offset the service holds.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { FAST, adminScan, adminScans, api, fault, signIn, waitFor, type ScanSummary } from './helpers';

suite('editor: cancel and resume uploads', () => {
  suiteSetup(async () => {
    await api();
    await signIn();
  });

  teardown(async () => {
    await fault({ action: 'clear' });
  });

  test('Cancel Scan stops a running upload; nothing is left to resume', async () => {
    const a = await api();
    const before = (await adminScans()).length;
    await fault({ action: 'delayNext', route: 'patchChunk', count: 1, ms: 4000 });
    const running = Promise.resolve(vscode.commands.executeCommand<ScanSummary | undefined>('codeScanner.scanWorkspace', FAST));
    // Packaging of the first folder ends at 15 % of its share; from there its (delayed) chunk request is in flight.
    const uploading = Math.floor(15 / (vscode.workspace.workspaceFolders?.length ?? 1));
    await waitFor('the upload to start', () => Number(/Scanning (\d+)%/.exec(a.statusBar.text)?.[1] ?? -1) >= uploading);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.cancelScan'), true);
    const summary = await running;
    assert.deepStrictEqual(summary, { folders: [], cancelled: true });
    assert.ok(!/Scanning/.test(a.statusBar.text), a.statusBar.text);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.resumeUpload', FAST), undefined, 'nothing to resume');
    assert.strictEqual((await adminScans()).length, before, 'no scan was created');
  });

  test('an interrupted upload is kept and Resume Upload completes it', async () => {
    const before = (await adminScans()).length;
    // Every chunk request fails until the fault is cleared; the engine gives up after one retry.
    await fault({ action: 'failNext', route: 'patchChunk', count: 50, status: 503 });
    const interrupted = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', { ...FAST, maxRetries: 1, retryBaseDelayMs: 10 });
    assert.strictEqual(interrupted?.error?.kind, 'interrupted', JSON.stringify(interrupted));
    assert.match(interrupted.error.message, /resumed/);
    assert.strictEqual((await adminScans()).length, before);
    await fault({ action: 'clear' });

    const summary = await vscode.commands.executeCommand<ScanSummary | undefined>('codeScanner.resumeUpload', FAST);
    const scanId = summary?.folders[0]?.scanId;
    assert.ok(scanId, `resumed: ${JSON.stringify(summary)}`);
    const record = await adminScan(scanId);
    assert.strictEqual(record.partial, false);
    assert.ok(record.files.includes('src/db.ts'));
    const a = await api();
    assert.ok(a.issues().length > 0, 'the resumed scan\'s findings are shown');
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.resumeUpload', FAST), undefined, 'the saved upload was cleared');
  });

  test('a 401 while fetching results stops the scan and asks to sign in again', async () => {
    await fault({ action: 'failNext', route: 'qualityIssues', count: 1, status: 401, body: { error: 'token revoked' } });
    const summary = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', FAST);
    assert.strictEqual(summary?.error?.kind, 'unauthorized', JSON.stringify(summary));
    assert.match(summary.error.message, /Sign in again/);
    const a = await api();
    assert.ok(!/Scanning/.test(a.statusBar.text), 'the status bar left the running state');
  });
});
