// Upload control from the editor: Cancel Scan stops a running upload and leaves nothing to
// resume; an upload the service keeps failing is interrupted, kept, and Resume Upload
// finishes it from the offset the service holds.
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { FAST, adminScan, adminScans, api, fault, signIn, waitFor, workspaceRoot, type ScanSummary } from './helpers';

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
    // Every folder's chunks are delayed: the folders scan at once, and either may upload first
    // (the second, outside git, runs no git and is often first).
    await fault({ action: 'delayNext', route: 'patchChunk', count: 10, ms: 4000 });
    const running = Promise.resolve(vscode.commands.executeCommand<ScanSummary | undefined>('codeScanner.scanWorkspace', FAST));
    // Packaging of a folder ends at 15 % of its share; from there its (delayed) chunk request is in flight.
    const uploading = Math.floor(15 / (vscode.workspace.workspaceFolders?.length ?? 1));
    await waitFor('the upload to start', () => Number(/Scanning (\d+)%/.exec(a.statusBar.text)?.[1] ?? -1) >= uploading);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.cancelScan'), true);
    const summary = await running;
    assert.deepStrictEqual(summary, { folders: [], cancelled: true });
    assert.ok(!/Scanning/.test(a.statusBar.text), a.statusBar.text);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.resumeUpload', FAST), undefined, 'nothing to resume');
    assert.strictEqual((await adminScans()).length, before, 'no scan was created');
  });

  test('an interrupted upload is kept, stays in view until resumed, and Resume Upload completes it and says what was left out', async () => {
    const a = await api();
    const before = (await adminScans()).length;
    // A credentials file: the scan leaves it out, and the resumed upload's message says so too.
    const secretDir = path.join(workspaceRoot(), 'config');
    fs.mkdirSync(secretDir, { recursive: true });
    fs.writeFileSync(path.join(secretDir, 'prod.env'), 'DB_PASSWORD=placeholder\n');
    try {
      // Every chunk request fails until the fault is cleared; the engine gives up after one retry.
      await fault({ action: 'failNext', route: 'patchChunk', count: 50, status: 503 });
      const interrupted = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', { ...FAST, maxRetries: 1, retryBaseDelayMs: 10 });
      assert.strictEqual(interrupted?.error?.kind, 'interrupted', JSON.stringify(interrupted));
      assert.match(interrupted.error.message, /resumed/);
      assert.strictEqual((await adminScans()).length, before);
      await fault({ action: 'clear' });
      // Not only a notification that may sit unseen: the status bar and the view say an upload waits.
      await waitFor('the status bar to show the upload that waits', () => /upload to resume/.test(a.statusBar.text));
      assert.strictEqual(a.statusBar.command, 'codeScanner.resumeUpload');
      assert.match(a.issuesTree.viewMessage ?? '', /(An interrupted upload of|Interrupted uploads of) .*order-service.* waits?: Resume Upload continues/);

      const seq = a.notifications().at(-1)?.seq ?? 0;
      const summary = await vscode.commands.executeCommand<ScanSummary | undefined>('codeScanner.resumeUpload', FAST);
      const resumed = summary?.folders.find((f) => f.folder === 'order-service');
      assert.ok(resumed?.leftOut?.some((s) => s.path === 'config/prod.env' && s.reason === 'credentials'), `the resumed scan knows what was left out: ${JSON.stringify(resumed)}`);
      assert.ok(a.notifications(seq).some((n) => /files? (was|were) left out.*credential files: 1/.test(n.text)), JSON.stringify(a.notifications(seq)));
      await waitFor('the status bar to stop showing it', () => !/upload to resume/.test(a.statusBar.text));
      assert.ok(!/interrupted upload/i.test(a.issuesTree.viewMessage ?? ''), a.issuesTree.viewMessage);
      await resumedChecks(summary);
    } finally {
      fs.rmSync(secretDir, { recursive: true, force: true });
    }
  });

  async function resumedChecks(summary: ScanSummary | undefined): Promise<void> {
    // Every folder's upload was interrupted (they upload side by side); they resume, and are
    // reported, in the workspace's folder order whichever started first.
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.name);
    assert.deepStrictEqual(summary?.folders.map((f) => f.folder), folders, `resumed: ${JSON.stringify(summary)}`);
    const scanId = summary?.folders[0]?.scanId;
    assert.ok(scanId, `resumed: ${JSON.stringify(summary)}`);
    const record = await adminScan(scanId);
    assert.strictEqual(record.partial, false);
    assert.ok(record.files.includes('src/db.ts'));
    const a = await api();
    assert.ok(a.issues().length > 0, 'the resumed scan\'s findings are shown');
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.resumeUpload', FAST), undefined, 'the saved upload was cleared');
  }

  test('at start-up an interrupted upload is offered by itself; choosing Resume finishes it byte for byte', async () => {
    const a = await api();
    const before = new Set((await adminScans()).map((s) => s.id));
    await fault({ action: 'failNext', route: 'patchChunk', count: 50, status: 503 });
    const interrupted = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', { ...FAST, maxRetries: 1, retryBaseDelayMs: 10 });
    assert.strictEqual(interrupted?.error?.kind, 'interrupted', JSON.stringify(interrupted));
    await fault({ action: 'clear' });
    const saved = await a.pendingUploads();
    // Folders upload side by side: each one's interrupted upload is saved.
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.name);
    assert.deepStrictEqual(saved.map((t) => t.folder).sort(), [...folders].sort(), 'the interrupted upload of every folder is saved');
    const archives = new Map(saved.map((t) => [t.folder, fs.readFileSync(t.archivePath)]));
    for (const t of saved) assert.strictEqual(createHash('sha256').update(archives.get(t.folder)!).digest('hex'), t.sha256);

    // What a reload does: activate() runs this check. Answer its notification like a user.
    const offers: { message: string; items: string[] }[] = [];
    const window = vscode.window as { showInformationMessage: unknown; showWarningMessage: unknown };
    const original = { info: window.showInformationMessage, warn: window.showWarningMessage };
    const answer = (message: string, ...items: unknown[]) => {
      const labels = items.filter((i): i is string => typeof i === 'string');
      offers.push({ message, items: labels });
      return Promise.resolve(labels.includes('Resume Upload') && /interrupted/.test(message) ? 'Resume Upload' : undefined);
    };
    window.showInformationMessage = answer;
    window.showWarningMessage = answer;
    let summary: ScanSummary | undefined;
    try {
      summary = await a.offerResume(FAST);
    } finally {
      window.showInformationMessage = original.info;
      window.showWarningMessage = original.warn;
    }
    const offer = offers.find((o) => o.items.includes('Resume Upload'));
    assert.ok(offer, `no Resume offer among ${JSON.stringify(offers)}`);
    assert.match(offer.message, folders.length > 1 ? /Uploads were interrupted: .*order-service.*\. Resume them\?/ : /An upload was interrupted: order-service .*\. Resume it\?/);

    assert.deepStrictEqual(summary?.folders.map((f) => f.folder).sort(), [...folders].sort(), `resumed: ${JSON.stringify(summary)}`);
    for (const f of summary.folders) {
      assert.ok(f.scanId && !before.has(f.scanId), `${f.folder}: a new scan`);
      const record = await adminScan(f.scanId);
      assert.ok(fs.readFileSync(record.archivePath).equals(archives.get(f.folder)!), `the service holds exactly the archive of ${f.folder} that was interrupted`);
    }
    assert.deepStrictEqual(await a.pendingUploads(), [], 'the saved transfers are cleared');
    for (const t of saved) assert.ok(!fs.existsSync(t.archivePath), 'its archive is deleted');
    assert.strictEqual(await a.offerResume(FAST), undefined, 'nothing is offered any more');
  });

  test('a 401 while fetching results stops the scan and asks to sign in again', async () => {
    await fault({ action: 'failNext', route: 'qualityIssues', count: 1, status: 401, body: { error: 'token revoked' } });
    const summary = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', FAST);
    assert.strictEqual(summary?.error?.kind, 'unauthorized', JSON.stringify(summary));
    assert.match(summary.error.message, /Sign in again/);
    const a = await api();
    assert.ok(!/Scanning/.test(a.statusBar.text), 'the status bar left the running state');
    // The service has the scan: it stays, for Refresh Results once signed in again. Folders
    // read their results side by side, so the one 401 lands on whichever folder asks first.
    const left = (vscode.workspace.workspaceFolders ?? [])
      .flatMap((f) => a.folderState(f.uri.toString())?.pending ?? [])
      .find((p) => !p.waiting);
    assert.ok(left, 'the scan is kept for later');
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.ignoreScan', { scanId: left.scanId }), true);
  });
});
