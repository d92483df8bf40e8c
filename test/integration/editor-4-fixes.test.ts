// Auto-fix in the editor: quick fixes on diagnostics, Preview Fix opens a diff against the
// patched text, Apply Fix edits (undoable, unsaved) and the finding is gone after a
// rescan; a fix whose code changed is refused and nothing changes. Diagnostics follow edits.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { api, closeAllEditors, fileUri, ourDiagnostics, revert, scan, signIn, waitFor } from './helpers';

async function fixableIn(rel: string) {
  const a = await api();
  return a.issues().filter((l) => l.issue.path === rel && l.issue.fix);
}

const EDITED = ['scripts/report.py', 'src/db.ts', 'src/server.js'];

suite('editor: fixes and range tracking', () => {
  // code-server saves edits after a delay (files.autoSave defaults to afterDelay on the web),
  // so the files these tests edit are put back on disk afterwards.
  const originals = new Map<string, string>();

  suiteSetup(async () => {
    await api();
    await signIn();
    for (const rel of EDITED) originals.set(rel, fs.readFileSync(fileUri(rel).fsPath, 'utf8'));
    await scan('codeScanner.scanWorkspace');
  });

  suiteTeardown(async () => {
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) await revert(doc.uri);
    await closeAllEditors();
    for (const [rel, text] of originals) fs.writeFileSync(fileUri(rel).fsPath, text);
  });

  teardown(async () => {
    await closeAllEditors();
  });

  test('diagnostics with a fix offer Apply Fix and Preview Fix quick fixes', async () => {
    const [l] = await fixableIn('scripts/report.py');
    assert.ok(l, 'report.py has a fixable finding');
    const doc = await vscode.workspace.openTextDocument(l.uri);
    await vscode.window.showTextDocument(doc);
    const d = ourDiagnostics(l.uri).find((x) => x.range.start.line === l.issue.line - 1);
    assert.ok(d);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', l.uri, d.range, vscode.CodeActionKind.QuickFix.value);
    const titles = actions.map((x) => x.title);
    assert.ok(titles.some((t) => t.startsWith('Apply Fix')), titles.join(' | '));
    assert.ok(titles.some((t) => t.startsWith('Preview Fix')), titles.join(' | '));
    assert.ok(titles.some((t) => t.startsWith('Apply All Fixes in File')), titles.join(' | '));
    assert.ok(actions.every((x) => x.kind?.value === vscode.CodeActionKind.QuickFix.value));
  });

  test('Preview Fix opens a diff editor of the file against the fixed text', async () => {
    const [l] = await fixableIn('src/db.ts');
    assert.ok(l);
    const ok = await vscode.commands.executeCommand('codeScanner.previewFix', { folderUri: l.folderUri, issueId: l.issue.id });
    assert.strictEqual(ok, true);
    const tab = await waitFor('a diff tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputTextDiff));
    const input = tab.input as vscode.TabInputTextDiff;
    assert.strictEqual(input.original.toString(), l.uri.toString());
    assert.strictEqual(input.modified.scheme, 'code-scanner-fix');
    assert.ok(tab.label.includes('Fix'), tab.label);
    const original = (await vscode.workspace.openTextDocument(l.uri)).getText();
    const patched = (await vscode.workspace.openTextDocument(input.modified)).getText();
    assert.notStrictEqual(patched, original, 'the preview shows a change');
    const fileText = (await vscode.workspace.openTextDocument(l.uri)).getText();
    assert.strictEqual(fileText, original, 'previewing changes nothing');
  });

  test('Apply Fix edits the file without saving, and the finding is gone after the rescan', async () => {
    const rel = 'scripts/report.py';
    const [l] = await fixableIn(rel);
    assert.ok(l);
    const cls = l.issue.classificationId;
    const before = ourDiagnostics(l.uri).filter((d) => d.code === cls).length;
    const doc = await vscode.workspace.openTextDocument(l.uri);
    const original = doc.getText();
    const applied = await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id });
    assert.strictEqual(applied, 1);
    assert.notStrictEqual(doc.getText(), original, 'the document changed');
    assert.strictEqual(doc.isDirty, true, 'nothing is saved for the user');
    await waitFor('the fixed finding to leave Problems', () => ourDiagnostics(l.uri).filter((d) => d.code === cls).length === before - 1);

    await doc.save();
    await scan('codeScanner.scanWorkspace');
    const a = await api();
    assert.ok(!a.issues().some((x) => x.issue.path === rel && x.issue.classificationId === cls && x.issue.line === l.issue.line),
      'the service no longer reports the fixed finding');
    assert.strictEqual(ourDiagnostics(l.uri).filter((d) => d.code === cls).length, before - 1);
  });

  test('a fix whose code was edited since the scan is refused and nothing changes', async () => {
    const [l] = await fixableIn('src/server.js');
    assert.ok(l);
    const doc = await vscode.workspace.openTextDocument(l.uri);
    const editor = await vscode.window.showTextDocument(doc);
    const line = doc.lineAt(l.issue.line - 1);
    await editor.edit((b) => b.replace(line.range, `${line.text} // edited by hand`));
    const edited = doc.getText();
    const applied = await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id });
    assert.strictEqual(applied, 0);
    assert.strictEqual(doc.getText(), edited, 'the refused fix changed nothing');
    await revert(l.uri);
  });

  test('Apply All Fixes in File applies every fix of the file in one edit', async () => {
    const rel = 'src/db.ts';
    const fixable = await fixableIn(rel);
    assert.ok(fixable.length >= 2, `db.ts has several fixes (${fixable.length})`);
    const doc = await vscode.workspace.openTextDocument(fileUri(rel));
    const applied = await vscode.commands.executeCommand('codeScanner.applyAllFixesInFile', doc.uri);
    assert.strictEqual(applied, fixable.length);
    assert.strictEqual(ourDiagnostics(doc.uri).filter((d) => fixable.some((f) => f.issue.classificationId === d.code)).length, 0);
    await vscode.commands.executeCommand('undo');
    await revert(doc.uri);
  });

  test('diagnostics follow edits: lines inserted above, the same line edited, the line deleted', async () => {
    await scan('codeScanner.scanWorkspace');
    const a = await api();
    const l = a.issues().find((x) => x.issue.path === 'src/server.js');
    assert.ok(l);
    const doc = await vscode.workspace.openTextDocument(l.uri);
    const editor = await vscode.window.showTextDocument(doc);
    const line0 = l.issue.line - 1;
    const find = () => ourDiagnostics(l.uri).find((d) => d.code === l.issue.classificationId && d.message.includes(l.issue.classificationName));
    const startChar = find()!.range.start.character;

    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// one\n// two\n'));
    await waitFor('the diagnostic to move down two lines', () => find()?.range.start.line === line0 + 2);

    await editor.edit((b) => b.insert(new vscode.Position(line0 + 2, 0), '    '));
    await waitFor('the diagnostic to move right on its line', () => find()?.range.start.character === startChar + 4 && find()?.range.start.line === line0 + 2);

    await editor.edit((b) => b.delete(new vscode.Range(line0 + 2, 0, line0 + 3, 0)));
    await waitFor('the diagnostic to go with its line', () => !ourDiagnostics(l.uri).some((d) => d.range.start.line === line0 + 2 && d.code === l.issue.classificationId));
    assert.ok(!a.issues().some((x) => x.issue.id === l.issue.id), 'the finding left the store');
    await revert(l.uri);
  });
});
