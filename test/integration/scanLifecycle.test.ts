// Never under-report, in a real VS Code against the reference service: findings change only
// when a scan has completed on the service and its findings were read whole. A scan that the
// service processes for 15 s (past the client's quick polls, into its growing waits) ends with
// all its findings; a cancel while the service scans, a failed scan and findings that cannot be
// read all keep every finding (and every dismissal), say what happened, and never say "No issues".
import * as assert from 'assert';
import * as vscode from 'vscode';
import {
  FAST, api, closeAllEditors, diagnosticsUnder, fault, fileUri, fixtureIssues, folderUriOf, planScanOutcome, scan,
  serviceIssues, setAnswerMode, signIn, statusBarTexts, waitFor, workspaceRoot, type ScanSummary,
} from './helpers';

const ids = async () => fixtureIssues(await api()).map((l) => l.issue.id).sort();
/** The status bar's tooltip as a person reads it (Markdown escapes removed). */
const tooltip = async () => String(((await api()).statusBar.tooltip as vscode.MarkdownString | undefined)?.value ?? '').replace(/\\(.)/g, '$1');
const neverNoIssues = (seen: string[]) => assert.ok(!seen.some((t) => /No issues/.test(t)), `the status bar said: ${seen.join(' | ')}`);

suite('editor: findings change only when a scan has completed', () => {
  suiteSetup(async () => {
    await api();
    await signIn();
  });

  teardown(async () => {
    await setAnswerMode({ shapes: 'seed', processingMs: null });
    await fault({ action: 'clear' });
    // A test that failed mid-scan leaves no scan running or expected for the next one.
    const a = await api();
    if (/sync~spin/.test(a.statusBar.text)) {
      await vscode.commands.executeCommand('codeScanner.cancelScan');
      await waitFor('the scan to stop', () => !/sync~spin/.test(a.statusBar.text), 30_000);
    }
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      for (const p of a.folderState(f.uri.toString())?.pending ?? []) await vscode.commands.executeCommand('codeScanner.ignoreScan', { scanId: p.scanId });
    }
  });

  suiteTeardown(closeAllEditors);

  test('a scan the service processes for 15 s ends with all its findings; meanwhile the status bar shows the service\'s state and time', async function () {
    this.timeout(120_000);
    const a = await api();
    await setAnswerMode({ shapes: 'real', processingMs: 15_000 });
    const started = Date.now();
    const { result, seen } = await statusBarTexts(Promise.resolve(vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', FAST)));
    assert.ok(Date.now() - started >= 15_000, 'it waited for the service');
    const scanId = result?.folders[0]?.scanId;
    assert.ok(scanId && !result?.error, JSON.stringify(result));
    assert.ok(seen.some((t) => /^\$\(sync~spin\) .*the service is scanning · \d+ (s|min)$/.test(t)), seen.join(' | '));
    neverNoIssues(seen);
    const expected = (await serviceIssues(scanId)).map((i) => String(i.id)).sort();
    assert.ok(expected.length >= 5);
    assert.deepStrictEqual(await ids(), expected);
    assert.deepStrictEqual(a.folderState(folderUriOf(workspaceRoot()))?.pending, undefined, 'nothing is waited for any more');
  });

  test('Cancel while the service scans keeps every finding and dismissal, never says "No issues", and Ignore This Scan keeps the earlier scans', async function () {
    this.timeout(120_000);
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const before = await ids();
    const dismissed = fixtureIssues(a)[0];
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.dismissFinding', { folderUri: dismissed.folderUri, issueId: dismissed.issue.id, reason: 'false-positive' }), true);
    const diagnostics = diagnosticsUnder().length;
    await setAnswerMode({ shapes: 'real', processingMs: 60_000 });
    const earlier = a.notifications().at(-1)?.seq ?? 0;
    const running = Promise.resolve(vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', FAST));
    const watched = statusBarTexts(running);
    // Every folder of the workspace uploaded (scanned side by side), so each scan goes on on the service.
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
    await waitFor('the service to be scanning every folder', () => folders.every((f) => a.folderState(f)?.pending?.length), 30_000);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.cancelScan'), true);
    const { result, seen } = await watched;
    neverNoIssues(seen);
    assert.ok(result?.cancelled && result.continuesOnService, JSON.stringify(result));
    assert.deepStrictEqual(await ids(), before, 'every finding stays');
    assert.strictEqual(diagnosticsUnder().length, diagnostics, 'Problems keeps them');
    assert.ok(a.issues().some((l) => l.issue.id === dismissed.issue.id), 'the dismissed finding stays, dismissed');
    const said = await waitFor('the message', () => a.notifications(earlier).find((n) => /Stopped waiting for the scan/.test(n.text)));
    if (folders.length > 1) {
      // One message for every folder whose scan goes on, not one each.
      assert.strictEqual(a.notifications(earlier).filter((n) => /Stopped waiting/.test(n.text)).length, 1);
      assert.match(said.text, /Stopped waiting for the scans of .+ and .+: the service goes on scanning them\. The findings shown are still those of each folder's last completed scan\./);
      assert.deepStrictEqual(said.actions, ['Refresh Results', 'Ignore These Scans']);
    } else {
      assert.match(said.text, /the service goes on scanning it\. The findings shown are still those of the scan of /);
      assert.deepStrictEqual(said.actions, ['Refresh Results', 'Ignore This Scan']);
    }
    assert.match(a.issuesTree.viewMessage ?? '', /You stopped waiting for the scan of .*; the service goes on scanning it/);
    assert.match(await tooltip(), /\d+ issues?, from the scan of/);
    assert.match(await tooltip(), /stopped waiting/);
    assert.ok(/^\$\(warning\) \d+ issues?$/.test(a.statusBar.text), a.statusBar.text);
    const folder = a.folderState(folderUriOf(workspaceRoot()));
    assert.deepStrictEqual(folder?.pending?.map((p) => [p.scanId, p.waiting]), [[result.continuesOnService, false]]);

    // Ignore This Scan: that scan only.
    const scansBefore = folder?.scans.map((s) => s.scanId);
    const ignored = await vscode.commands.executeCommand<boolean>('codeScanner.ignoreScan', { scanId: result.continuesOnService });
    assert.strictEqual(ignored, true);
    const after = a.folderState(folderUriOf(workspaceRoot()));
    assert.deepStrictEqual(after?.scans.map((s) => s.scanId), scansBefore, 'the earlier scans stay');
    assert.strictEqual(after?.pending, undefined);
    assert.deepStrictEqual(await ids(), before);
    // The other folders' scans, as Ignore These Scans would.
    for (const f of folders) for (const p of a.folderState(f)?.pending ?? []) await vscode.commands.executeCommand('codeScanner.ignoreScan', { scanId: p.scanId });
    assert.doesNotMatch(a.issuesTree.viewMessage ?? '', /stopped waiting/i);
    await vscode.commands.executeCommand('codeScanner.restoreFinding', { folderUri: dismissed.folderUri, issueId: dismissed.issue.id });
  });

  test('a partial scan whose findings answer 503 keeps every finding; the message offers Refresh Results, which then reads them', async function () {
    this.timeout(120_000);
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const rel = 'src/server.js';
    const before = await ids();
    const inFile = fixtureIssues(a).filter((l) => l.issue.path === rel);
    assert.ok(inFile.length > 0, `${rel} has findings`);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.dismissFinding', { folderUri: inFile[0].folderUri, issueId: inFile[0].issue.id, reason: 'accepted-risk' }), true);
    await closeAllEditors();
    await vscode.window.showTextDocument(fileUri(rel), { preview: false });
    // Every list of the scan fails (one list failing alone is the kinds suite's).
    for (const route of ['securityIssues', 'qualityIssues', 'dependencyIssues']) await fault({ action: 'failNext', route, count: 1000, status: 503 });
    const earlier = a.notifications().at(-1)?.seq ?? 0;
    const { result, seen } = await statusBarTexts(Promise.resolve(vscode.commands.executeCommand<ScanSummary>('codeScanner.scanOpenFiles', { ...FAST, retryBaseDelayMs: 50 })));
    neverNoIssues(seen);
    assert.strictEqual(result?.error?.kind, 'unreadable', JSON.stringify(result));
    assert.deepStrictEqual(await ids(), before, 'every finding stays, those of the scanned file too');
    assert.ok(a.issues().some((l) => l.issue.id === inFile[0].issue.id), 'the dismissed finding stays');
    const said = await waitFor('the message', () => a.notifications(earlier).find((n) => /could not be read/.test(n.text)));
    assert.deepStrictEqual(said.actions, ['Refresh Results']);
    assert.strictEqual(said.severity, 'warning');
    assert.match(a.issuesTree.viewMessage ?? '', /could not be read .*Refresh Results tries again/);

    await fault({ action: 'clear' });
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.refreshResults'), true);
    const fresh = (await serviceIssues(result.continuesOnService!)).map((i) => String(i.id));
    assert.ok(fresh.length > 0);
    await waitFor('the partial scan\'s findings', async () => fresh.every((id) => a.issues().some((l) => l.issue.id === id)));
    assert.strictEqual(a.folderState(folderUriOf(workspaceRoot()))?.pending, undefined);
    assert.doesNotMatch(a.issuesTree.viewMessage ?? '', /could not be read/);
  });

  test('a scan the service fails shows its reason and keeps the findings', async function () {
    this.timeout(60_000);
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const before = await ids();
    await setAnswerMode({ shapes: 'real', processingMs: 1500 });
    await planScanOutcome({ failedReason: 'The scan ran out of time on the service', project: 'order-service' });
    const earlier = a.notifications().at(-1)?.seq ?? 0;
    const { result, seen } = await statusBarTexts(Promise.resolve(vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', FAST)));
    neverNoIssues(seen);
    assert.strictEqual(result?.error?.kind, 'scan-failed', JSON.stringify(result));
    assert.deepStrictEqual(await ids(), before);
    const said = await waitFor('the message', () => a.notifications(earlier).find((n) => /failed on the service/.test(n.text)));
    assert.match(said.text, /The scan of order-service failed on the service: The scan ran out of time on the service\. The findings shown are still those of the scan of /);
    assert.match(a.issuesTree.viewMessage ?? '', /The last scan \(.+\) failed on the service: The scan ran out of time on the service\./);
    assert.match(await tooltip(), /failed on the service: The scan ran out of time on the service/);
    // The other folder, scanned beside it, finished: its result is told and kept.
    for (const other of (vscode.workspace.workspaceFolders ?? []).filter((f) => f.name !== 'order-service')) {
      assert.ok(result.folders.some((f) => f.folder === other.name && f.scanId), JSON.stringify(result));
      assert.ok(a.notifications(earlier).some((n) => n.text.includes('Scan finished:') && n.text.includes(other.name)), `${other.name}'s result is told`);
    }
  });

  test('a completed scan with scan_errors says its results may be incomplete', async function () {
    this.timeout(60_000);
    const a = await api();
    await setAnswerMode({ shapes: 'real', processingMs: 500 });
    await planScanOutcome({ scanErrors: [{ scan_type: 'blast', level: 'error', location: 'scripts/report.py', message: 'The Python parser timed out' }], project: 'order-service' });
    const result = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', FAST);
    assert.deepStrictEqual(result?.folders[0]?.warnings, ['scripts/report.py: The Python parser timed out']);
    assert.match(a.issuesTree.viewMessage ?? '', /reported problems, so its results may be incomplete: scripts\/report\.py: The Python parser timed out/);
  });
});
