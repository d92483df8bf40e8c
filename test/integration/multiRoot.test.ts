// Scan Workspace in a multi-root workspace: one scan per folder at the service, every
// folder's findings in the store and Problems, and the tree's top level is one node per folder.
// The second folder is not a git repository, so its .gitignore is applied by the walk.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { plural } from '../../src/core/text/l10n';
import { FAST, adminScans, api, env, folderUriOf, ourDiagnostics, serviceIssues, signIn, workspaceRoot, type ScanSummary } from './helpers';

suite('editor: multi-root workspace', () => {
  suiteSetup(async () => {
    await api();
    await signIn();
  });

  test('Scan Workspace scans every folder: one scan each, findings of both, a folder level in the tree', async () => {
    const a = await api();
    const second = env('CODE_SCANNER_TEST_SECOND_FOLDER');
    const before = new Set((await adminScans()).map((s) => s.id));

    const summary = await vscode.commands.executeCommand<ScanSummary | undefined>('codeScanner.scanWorkspace', FAST);
    assert.ok(summary && !summary.error, JSON.stringify(summary));
    assert.deepStrictEqual(summary.folders.map((f) => f.folder), ['order-service', 'ops-tools']);
    const [firstId, secondId] = summary.folders.map((f) => f.scanId);
    assert.ok(firstId && secondId && firstId !== secondId, JSON.stringify(summary));

    // One new scan per folder, each with only that folder's files. (An earlier test's
    // cancelled, delayed chunk may still complete a scan of the first folder meanwhile.)
    const created = (await adminScans()).filter((s) => !before.has(s.id));
    assert.ok(created.some((s) => s.id === firstId) && created.some((s) => s.id === secondId), JSON.stringify(created.map((s) => s.id)));
    assert.strictEqual(created.filter((s) => s.formParts.project_name === 'ops-tools').length, 1);
    const rec = (id: string) => created.find((s) => s.id === id)!;
    assert.strictEqual(rec(firstId).formParts.project_name, 'order-service');
    assert.strictEqual(rec(secondId).formParts.project_name, 'ops-tools');
    assert.ok(rec(firstId).files.includes('src/db.ts') && !rec(firstId).files.includes('tools/cleanup.py'), rec(firstId).files.join(', '));
    assert.deepStrictEqual([...rec(secondId).files].sort(), ['.gitignore', 'README.md', 'tools/cleanup.py'], 'build/ is ignored by the folder\'s .gitignore outside git');
    assert.strictEqual(rec(secondId).partial, false);

    // Both folders' findings are in the store, each under its own folder.
    const firstUri = folderUriOf(workspaceRoot());
    const secondUri = folderUriOf(second);
    const ids = (folderUri: string) => a.issues().filter((l) => l.folderUri === folderUri).map((l) => l.issue.id).sort();
    const expectedFirst = (await serviceIssues(firstId)).map((i) => i.id).sort();
    const expectedSecond = await serviceIssues(secondId);
    assert.ok(expectedFirst.length > 0 && expectedSecond.length > 0);
    assert.deepStrictEqual(ids(firstUri), expectedFirst);
    assert.deepStrictEqual(ids(secondUri), expectedSecond.map((i) => i.id).sort());

    // The second folder's bare except is a diagnostic in its file.
    const bare = expectedSecond.find((i) => i.location.file.path === 'tools/cleanup.py');
    assert.ok(bare, JSON.stringify(expectedSecond));
    const diags = ourDiagnostics(vscode.Uri.file(path.join(second, 'tools', 'cleanup.py')));
    assert.ok(diags.some((d) => d.code === bare.code && d.range.start.line === bare.location.line_number - 1),
      `diagnostics: ${diags.map((d) => `${d.code}@${d.range.start.line}`).join(', ')}`);

    // The tree has a folder level, named after the folders, each holding its own findings.
    const top = a.issuesTree.getChildren();
    assert.deepStrictEqual(top.map((n) => n.kind === 'folder' && [n.name, n.folderUri]), [['order-service', firstUri], ['ops-tools', secondUri]]);
    // Each folder names the project its scans go to (no git remote here: the folder's name).
    assert.strictEqual(a.issuesTree.getTreeItem(top[1]).description, `${plural(expectedSecond.length, '{0} issue', '{0} issues')} · project ops-tools`);
    const groups = a.issuesTree.getChildren(top[1]);
    assert.deepStrictEqual(groups.map((g) => g.kind === 'group' && g.key), ['tools/cleanup.py']);
    assert.deepStrictEqual(a.issuesTree.getParent(groups[0]), top[1]);
  });
});
