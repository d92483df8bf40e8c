// What leaves the machine: Preview Upload lists exactly the files a scan uploads (and every
// file left out, with why), the first scan of a workspace asks first (Preview Upload one
// click away, the answer remembered, a workspace's own settings cannot turn the question
// off), and the scan's metadata names the archive it sent.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { UploadPreviewSummary } from '../../src/editor/scan/uploadPreview';
import { adminScan, adminScans, api, askFirstScanAgain, FAST, fileUri, logText, scan, signIn, waitFor, workspaceRoot, type ScanSummary } from './helpers';

const ADDED = { '.env': 'API_KEY=not-for-upload\n', 'debug.log': 'log line\n', 'node_modules/left/index.js': 'module.exports = 1;\n' };

suite('editor: Preview Upload and the first-scan question', () => {
  suiteSetup(async () => {
    await api();
    await signIn();
    for (const [rel, text] of Object.entries(ADDED)) {
      fs.mkdirSync(path.dirname(path.join(workspaceRoot(), rel)), { recursive: true });
      fs.writeFileSync(path.join(workspaceRoot(), rel), text);
    }
  });

  suiteTeardown(async () => {
    for (const rel of Object.keys(ADDED)) fs.rmSync(path.join(workspaceRoot(), rel), { force: true });
    fs.rmSync(path.join(workspaceRoot(), 'node_modules'), { recursive: true, force: true });
    const c = vscode.workspace.getConfiguration('codeScanner');
    await c.update('confirmFirstUpload', false, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('codeScanner.closeUploadPreview');
  });

  test('Preview Upload lists exactly what the scan uploads, and what it leaves out with why', async () => {
    const preview = await vscode.commands.executeCommand<UploadPreviewSummary>('codeScanner.previewUpload');
    const mine = preview.folders.find((f) => f.folder === path.basename(workspaceRoot()))!;
    assert.ok(mine, JSON.stringify(preview.folders.map((f) => f.folder)));
    const reasons = new Map(mine.leftOut.map((l) => [l.path, l.reason]));
    assert.strictEqual(reasons.get('.env'), 'credentials');
    assert.strictEqual(reasons.get('debug.log'), 'gitignored');
    assert.ok([...reasons].some(([p, r]) => p.startsWith('node_modules') && r === 'gitignored'), JSON.stringify([...reasons]));
    assert.ok(!mine.files.includes('.env') && mine.files.includes('src/db.ts'));

    const scanId = await scan('codeScanner.scanWorkspace');
    const uploaded = await adminScan(scanId);
    assert.deepStrictEqual([...uploaded.files].sort(), [...mine.files].sort(), 'the preview is the archive, file for file');
    // The scan's metadata names the archive: its file count, size and digest.
    const metadata = JSON.parse(uploaded.formParts.metadata ?? '{}') as { archive?: { files: number; bytes: number; sha256: string } };
    assert.strictEqual(metadata.archive?.files, mine.files.length);
    assert.match(metadata.archive?.sha256 ?? '', /^[0-9a-f]{64}$/);
  });

  test('the first scan asks, with the file count and the service, before anything is sent; the answer is remembered', async () => {
    // Extension tests run in a workbench that refuses modal dialogs (VS Code's own rule), so
    // the question is read from the log and left unanswered, which must send nothing; the
    // demo's screenshot mode answers the real dialog with the mouse (Preview Upload, then
    // Upload and Scan).
    const c = vscode.workspace.getConfiguration('codeScanner');
    const { scansBefore: before, logBefore } = await askFirstScanAgain();
    // A compiled file without an extension: binary by its content, so packaging leaves it out and the count must too.
    const blob = fileUri('bin/compiled').fsPath;
    fs.mkdirSync(path.dirname(blob), { recursive: true });
    fs.writeFileSync(blob, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]));
    try {
      const unanswered = await vscode.commands.executeCommand<ScanSummary | undefined>('codeScanner.scanWorkspace', FAST);
      assert.strictEqual(unanswered, undefined, 'no answer, no scan');
      assert.strictEqual((await adminScans()).length, before, 'nothing was uploaded');
      const preview = await vscode.commands.executeCommand<UploadPreviewSummary>('codeScanner.previewUpload');
      assert.ok(preview.folders[0]!.leftOut.some((x) => x.path === 'bin/compiled' && x.reason === 'binary'), JSON.stringify(preview.folders[0]!.leftOut));
      const files = preview.folders.reduce((n, f) => n + f.files.length, 0);
      const asked = await waitFor('the question in the log', async () => {
        const t = (await logText()).slice(logBefore.length);
        return /for scanning\?/.test(t) && t;
      });
      assert.match(asked, new RegExp(`Upload ${files} files \\([^)]+\\) of this workspace to 127\\.0\\.0\\.1:\\d+ for scanning\\?`), asked);
    } finally {
      fs.rmSync(path.dirname(blob), { recursive: true, force: true });
    }

    // A workspace's own settings cannot turn the question off.
    await assert.rejects(Promise.resolve(c.update('confirmFirstUpload', false, vscode.ConfigurationTarget.Workspace)), /User settings/);

    // Answered (here by the caller, as automation does): the scan goes on, and the next one does not ask.
    const yes = await vscode.commands.executeCommand<ScanSummary | undefined>('codeScanner.scanWorkspace', { ...FAST, confirmed: true });
    assert.ok(yes?.folders[0]?.scanId, JSON.stringify(yes));
    const logMid = (await logText()).length;
    const again = await vscode.commands.executeCommand<ScanSummary | undefined>('codeScanner.scanWorkspace', FAST);
    assert.ok(again?.folders[0]?.scanId, JSON.stringify(again));
    assert.ok(!(await logText()).slice(logMid).includes('for scanning?'), 'not asked again');
  });
});
