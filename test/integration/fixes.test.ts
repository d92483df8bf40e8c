// Auto-fix in the editor: quick fixes on diagnostics, Preview Fix opens a diff against the
// patched text, Apply Fix edits (undoable, unsaved) and the finding is gone after a
// rescan; a fix whose code changed is refused and nothing changes. Diagnostics follow edits.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { api, closeAllEditors, fileUri, ourDiagnostics, revert, scan, signIn, waitFor , codeOf } from './helpers';

async function fixableIn(rel: string) {
  const a = await api();
  return a.issues().filter((l) => l.issue.path === rel && l.issue.fix);
}

const EDITED = ['scripts/report.py', 'src/db.ts', 'src/server.js'];

suite('editor: fixes and range tracking', () => {
  // Some of these tests save what they edit: the files are put back on disk afterwards.
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
    assert.ok(titles.some((t) => t.startsWith('Code Scanner: Apply Fix')), titles.join(' | '));
    assert.ok(titles.some((t) => t.startsWith('Code Scanner: Preview Fix')), titles.join(' | '));
    assert.ok(titles.some((t) => t.startsWith('Code Scanner: Apply All Fixes in File')), titles.join(' | '));
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
    const cls = codeOf(l.issue);
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
    assert.ok(!a.issues().some((x) => x.issue.path === rel && codeOf(x.issue) === cls && x.issue.line === l.issue.line),
      'the service no longer reports the fixed finding');
    assert.strictEqual(ourDiagnostics(l.uri).filter((d) => d.code === cls).length, before - 1);
  });

  test('Apply Fix opens the file at the change, says once what was fixed and how to undo it, and the Details view shows it fixed', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const [l] = await fixableIn('src/db.ts');
    assert.ok(l);
    const ref = { folderUri: l.folderUri, issueId: l.issue.id };
    await closeAllEditors();
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.showDetails', ref), true);
    assert.match(a.details()?.html ?? '', /data-action="apply">Apply Fix/);
    const earlier = a.notifications().at(-1)?.seq ?? 0;
    try {
      assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyFix', ref), 1);
      const editor = await waitFor('the file to be shown', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === l.uri.toString()));
      assert.ok(Math.abs(editor.selection.active.line - l.issue.range!.start.line) <= 3, `the cursor is at the change (line ${editor.selection.active.line + 1})`);
      const said = a.notifications(earlier);
      assert.strictEqual(said.length, 1, JSON.stringify(said));
      assert.match(said[0].text, new RegExp(`^Code Scanner: Applied the fix for .+ in src/db\\.ts\\. The file is edited, not saved; Undo \\(Ctrl\\+Z`));
      const page = await waitFor('the Details view to show it fixed', () => (/Fixed: the suggested fix was applied/.test(a.details()?.html ?? '') ? a.details()!.html : undefined));
      assert.ok(!/data-action="(apply|preview)"/.test(page), 'no Apply or Preview that would do nothing');
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('undo');
      await waitFor('the finding back in the Details view', () => /data-action="apply">Apply Fix/.test(a.details()?.html ?? ''));
    } finally {
      // Whatever failed above, the next tests find db.ts as the scan saw it.
      await revert(l.uri);
      fs.writeFileSync(l.uri.fsPath, originals.get('src/db.ts')!);
    }
  });

  test('the light bulb counts what Apply All Fixes in File will apply: a dismissed finding\'s fix is not among them', async () => {
    const a = await api();
    // The files as the fixture has them (an earlier test saved a fix): report.py has three fixes.
    for (const [rel, text] of originals) fs.writeFileSync(fileUri(rel).fsPath, text);
    await scan('codeScanner.scanWorkspace');
    const fixable = await fixableIn('scripts/report.py');
    assert.ok(fixable.length >= 3, `report.py has several fixes (${fixable.length})`);
    const [dismissed, shown] = fixable;
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.dismissFinding', { folderUri: dismissed.folderUri, issueId: dismissed.issue.id, reason: 'wont-fix' }), true);
    try {
      const d = ourDiagnostics(shown.uri).find((x) => x.range.start.line === shown.issue.range!.start.line && x.code === codeOf(shown.issue));
      assert.ok(d);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', shown.uri, d.range, vscode.CodeActionKind.QuickFix.value);
      const all = actions.find((x) => x.title.startsWith('Code Scanner: Apply All Fixes in File'));
      assert.strictEqual(all?.title, `Code Scanner: Apply All Fixes in File (${fixable.length - 1})`);
      const doc = await vscode.workspace.openTextDocument(shown.uri);
      assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyAllFixesInFile', doc.uri), fixable.length - 1, 'exactly as many as it said');
      await revert(doc.uri);
    } finally {
      await vscode.commands.executeCommand('codeScanner.restoreFinding', { folderUri: dismissed.folderUri, issueId: dismissed.issue.id });
      await waitFor('the finding to be back', () => a.issues().some((x) => x.issue.id === dismissed.issue.id));
    }
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
    assert.strictEqual(ourDiagnostics(doc.uri).filter((d) => fixable.some((f) => codeOf(f.issue) === d.code)).length, 0);
    await vscode.commands.executeCommand('undo');
    await revert(doc.uri);
  });

  test('a replacement of the whole text (revert, formatter) keeps each diagnostic on its line; a line really gone takes its own', async () => {
    await scan('codeScanner.scanWorkspace');
    const uri = fileUri('scripts/report.py');
    const doc = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(doc);
    const original = doc.getText();
    const spots = () => ourDiagnostics(uri).map((d) => `${d.code}@${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`).sort();
    const before = ourDiagnostics(uri);
    assert.ok(before.length >= 2, `report.py has several findings (${before.length})`);
    const atStart = spots();

    const changes: vscode.TextDocumentContentChangeEvent[] = [];
    const sub = vscode.workspace.onDidChangeTextDocument((e) => { if (e.document.uri.toString() === uri.toString()) changes.push(...e.contentChanges); });
    /** Runs `act` and checks the editor reported it as one change over the whole text, or this proves nothing. */
    const wholeText = async (what: string, act: () => Thenable<unknown>) => {
      const lines = doc.lineCount;
      changes.length = 0;
      await act();
      await waitFor(`${what} to change the document`, () => changes.length > 0);
      assert.ok(changes.some((c) => c.range.start.line === 0 && c.range.end.line >= lines - 2 && c.text.length > 0),
        `${what}: ${JSON.stringify(changes.map((c) => [c.range.start.line, c.range.end.line, c.text.length]))}`);
    };
    // Through the editor: a WorkspaceEdit (like a formatter's edits) is first reduced to a minimal diff by VS Code.
    const replaceAll = (text: string) => editor.edit((b) => b.replace(doc.validateRange(new vscode.Range(0, 0, doc.lineCount, 0)), text));
    try {
      // Revert: a line typed at the top and one at the bottom make VS Code replace everything.
      await editor.edit((b) => { b.insert(new vscode.Position(0, 0), '# draft\n'); b.insert(doc.lineAt(doc.lineCount - 1).range.end, '\n# more'); });
      await waitFor('the diagnostics to move down', () => ourDiagnostics(uri).every((d) => d.range.start.line > 0) && spots().join() !== atStart.join());
      await wholeText('Revert File', () => vscode.commands.executeCommand('workbench.action.files.revert'));
      assert.strictEqual(doc.getText(), original);
      assert.deepStrictEqual(spots(), atStart, 'after a revert every diagnostic is back on its line');

      // The same text again, replacing everything.
      await wholeText('replacing the text with itself', () => replaceAll(original));
      assert.deepStrictEqual(spots(), atStart, 'every diagnostic stays on its line');

      // A formatter: new first line, every indent halved.
      const formatted = '# formatted\n' + original.replace(/^( +)/gm, (m) => ' '.repeat(m.length / 2));
      await wholeText('the formatter edit', () => replaceAll(formatted));
      const newLines = formatted.split('\n');
      const expected = before.map((d) => {
        const text = newLines[d.range.start.line + 1];
        return `${d.code}@${d.range.start.line + 1}:${text.length - text.trimStart().length}-${d.range.start.line + 1}:${text.length}`;
      }).sort();
      assert.deepStrictEqual(spots(), expected, 'each diagnostic follows its line to its new place and indent');

      // A replacement without the bare except line: that finding goes, the others stay.
      const bare = before.find((d) => original.split('\n')[d.range.start.line].trim() === 'except:');
      assert.ok(bare, 'report.py has a bare except finding');
      await wholeText('the edit removing a line', () => replaceAll('# formatted again\n' + newLines.slice(1).filter((l) => l.trim() !== 'except:').join('\n')));
      const after = ourDiagnostics(uri);
      assert.ok(!after.some((d) => d.code === bare.code && doc.lineAt(d.range.start.line).text.trim() === 'except:'), 'the removed line\'s finding is gone');
      assert.strictEqual(after.length, before.length - 1, `the other findings stay: ${spots().join(', ')}`);
    } finally {
      sub.dispose();
      await revert(uri);
    }
  });

  test('diagnostics follow edits: lines inserted above, the same line edited, the line deleted', async () => {
    await scan('codeScanner.scanWorkspace');
    const a = await api();
    const l = a.issues().find((x) => x.issue.path === 'src/server.js');
    assert.ok(l);
    const doc = await vscode.workspace.openTextDocument(l.uri);
    const editor = await vscode.window.showTextDocument(doc);
    const line0 = l.issue.line - 1;
    const find = () => ourDiagnostics(l.uri).find((d) => d.code === codeOf(l.issue) && d.message.includes(l.issue.classificationName));
    const startChar = find()!.range.start.character;

    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// one\n// two\n'));
    await waitFor('the diagnostic to move down two lines', () => find()?.range.start.line === line0 + 2);

    await editor.edit((b) => b.insert(new vscode.Position(line0 + 2, 0), '    '));
    await waitFor('the diagnostic to move right on its line', () => find()?.range.start.character === startChar + 4 && find()?.range.start.line === line0 + 2);

    await editor.edit((b) => b.delete(new vscode.Range(line0 + 2, 0, line0 + 3, 0)));
    await waitFor('the diagnostic to go with its line', () => !ourDiagnostics(l.uri).some((d) => d.range.start.line === line0 + 2 && d.code === codeOf(l.issue)));
    assert.ok(!a.issues().some((x) => x.issue.id === l.issue.id), 'the finding left the store');
    await revert(l.uri);
  });
});
