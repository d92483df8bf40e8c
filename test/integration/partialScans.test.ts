// Partial scans: Scan Open Files uploads only the files open in editor tabs, Scan Changed
// Files only what git reports as changed; their findings replace only those files' findings.
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { adminScan, api, closeAllEditors, fileUri, ourDiagnostics, scan, serviceIssues, signIn, waitFor, workspaceRoot } from './helpers';

/** What git itself reports as changed (modified, added, untracked; deleted files excluded). */
function gitChanged(): string[] {
  const out = execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd: workspaceRoot(), encoding: 'utf8' });
  return out.split('\0').filter(Boolean).filter((e) => !e.slice(0, 2).includes('D')).map((e) => e.slice(3)).sort();
}

suite('editor: partial scans', () => {
  suiteSetup(async () => {
    await api();
    await signIn();
  });

  suiteTeardown(closeAllEditors);

  test('Scan Open Files uploads only the open files and keeps the other files\' findings', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const others = a.issues().filter((l) => l.issue.path !== 'src/db.ts' && l.issue.path !== 'scripts/report.py').map((l) => l.issue.id).sort();
    await closeAllEditors();
    for (const rel of ['src/db.ts', 'scripts/report.py']) {
      await vscode.window.showTextDocument(fileUri(rel), { preview: false });
    }
    const scanId = await scan('codeScanner.scanOpenFiles');
    const record = await adminScan(scanId);
    assert.strictEqual(record.partial, true);
    assert.deepStrictEqual([...record.filesToScan].sort(), ['scripts/report.py', 'src/db.ts']);
    assert.deepStrictEqual([...record.files].sort(), ['scripts/report.py', 'src/db.ts'], 'the archive holds only the open files');
    assert.strictEqual(record.formParts.partial_scan, 'true');

    const fresh = (await serviceIssues(scanId)).map((i) => String(i.id));
    const ids = a.issues().map((l) => l.issue.id);
    for (const id of fresh) assert.ok(ids.includes(id), 'the partial scan\'s findings are shown');
    for (const id of others) assert.ok(ids.includes(id), 'findings of files not rescanned stay');
    assert.strictEqual(ids.length, fresh.length + others.length);
  });

  test('Scan Changed Files uploads what git reports as changed', async () => {
    const rel = 'src/pricing.js';
    const file = fileUri(rel).fsPath;
    const original = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, `${original}\n// changed\n`);
    try {
      const a = await api();
      const earlier = a.notifications().at(-1)?.seq ?? 0;
      const scanId = await scan('codeScanner.scanChangedFiles');
      // Its count is of the files it scanned, not the folder's total.
      const said = a.notifications(earlier).find((n) => /Scan finished/.test(n.text));
      assert.match(said?.text ?? '', /(no issues|\d+ issues?)(, \d+ new,)? in the \d+ changed files? of order-service/);
      const record = await adminScan(scanId);
      assert.strictEqual(record.partial, true);
      assert.ok(record.filesToScan.includes(rel), record.filesToScan.join(', '));
      assert.deepStrictEqual([...record.filesToScan].sort(), gitChanged(), 'exactly the files git reports as changed');
      assert.ok(!record.filesToScan.includes('package.json'), 'unchanged files are not uploaded');
      assert.deepStrictEqual([...record.files].sort(), [...record.filesToScan].sort());
    } finally {
      fs.writeFileSync(file, original);
    }
  });

  test('findings of a file deleted on disk leave the store and Problems', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const rel = 'src/pricing.js';
    const uri = fileUri(rel);
    assert.ok(a.issues().some((l) => l.issue.path === rel), 'pricing.js has findings');
    const text = fs.readFileSync(uri.fsPath);
    fs.unlinkSync(uri.fsPath);
    try {
      await waitFor('the deleted file\'s findings to go', () => !a.issues().some((l) => l.issue.path === rel), 15_000);
      assert.strictEqual(ourDiagnostics(uri).length, 0);
    } finally {
      fs.writeFileSync(uri.fsPath, text);
    }
  });
});
