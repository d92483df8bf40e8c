// A fix thrown away brings its finding back, by every route a person takes: closing without
// saving, File: Revert File, the old text written outside the editor (git checkout); a fix
// kept keeps it out, also across a reload (zKeptFix.test.ts); the next
// full scan marks nothing "new" that was there before the fix.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { LocatedIssue } from '../../src/editor/results/resultsStore';
import { api, closeAllEditors, dialog, fileUri, fixtureIssues, ourDiagnostics, revert, scan, signIn, waitFor , codeOf } from './helpers';

/** The files these tests edit, as the fixture has them. */
const FILES = ['src/pricing.js', 'src/server.js', 'src/db.ts', 'src/format.ts', 'scripts/report.py'];

async function fixableIn(rel: string): Promise<LocatedIssue[]> {
  return fixtureIssues(await api()).filter((l) => l.issue.path === rel && l.issue.fix);
}

const refOf = (l: LocatedIssue) => ({ folderUri: l.folderUri, issueId: l.issue.id });

async function present(l: LocatedIssue): Promise<boolean> {
  return (await api()).issues().some((x) => x.folderUri === l.folderUri && x.issue.id === l.issue.id);
}

/** Applies one finding's fix in its open editor and waits for the finding to leave the view and Problems. */
async function applyOne(l: LocatedIssue): Promise<vscode.TextDocument> {
  const doc = await vscode.workspace.openTextDocument(l.uri);
  await vscode.window.showTextDocument(doc);
  const line = l.issue.range!.start.line;
  assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyFix', refOf(l)), 1);
  assert.ok(doc.isDirty);
  await waitFor('the fixed finding to leave the view', async () => !(await present(l)));
  await waitFor('its diagnostic to leave Problems', () => !ourDiagnostics(l.uri).some((d) => d.code === codeOf(l.issue) && d.range.start.line === line));
  return doc;
}

/** The finding is back in the view and in Problems, on its code's line. */
async function cameBack(l: LocatedIssue, why: string): Promise<void> {
  await waitFor(`the finding back after ${why}`, () => present(l));
  const text = fs.readFileSync(l.uri.fsPath, 'utf8').split(/\r?\n/);
  const line = text.findIndex((t) => t.trim() === l.issue.lineText?.trim());
  assert.ok(line >= 0, 'its code is in the file');
  await waitFor(`its diagnostic back in Problems after ${why}`, () => ourDiagnostics(l.uri).some((d) => d.code === codeOf(l.issue) && d.range.start.line === line));
}

suite('editor: a fix thrown away brings its finding back', () => {
  const originals = new Map<string, string>();

  suiteSetup(async () => {
    await api();
    await signIn();
    for (const rel of FILES) originals.set(rel, fs.readFileSync(fileUri(rel).fsPath, 'utf8'));
    await scan('codeScanner.scanWorkspace');
  });

  teardown(async () => {
    for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) await revert(doc.uri);
    await closeAllEditors();
    for (const [rel, text] of originals) if (fs.readFileSync(fileUri(rel).fsPath, 'utf8') !== text) fs.writeFileSync(fileUri(rel).fsPath, text);
  });

  test('close the file and answer Don\'t Save: the finding is back', async () => {
    const [l] = await fixableIn('src/pricing.js');
    assert.ok(l, 'pricing.js has a fixable finding');
    await applyOne(l);
    // A person is asked Save / Don't Save / Cancel; a window running extension tests takes
    // Don't Save without asking (VS Code's save confirmation skips dialogs under test), which
    // is the same route: the editor's text is thrown away and the document closed.
    const closing = Promise.resolve(vscode.commands.executeCommand('workbench.action.closeActiveEditor'));
    let settled = false;
    void closing.then(() => (settled = true));
    const asked = await waitFor('the editor to close or ask', async () => {
      if (settled) return 'closed';
      const d = await dialog();
      return d?.visible ? d : false;
    });
    if (asked !== 'closed') await dialog(asked.buttons.find((b) => /Don.t Save/.test(b)));
    await closing;
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.toString() === l.uri.toString() && d.isDirty), 'the unsaved fix is gone');
    await cameBack(l, 'Don\'t Save');
    assert.strictEqual(fs.readFileSync(l.uri.fsPath, 'utf8'), originals.get('src/pricing.js'), 'nothing was saved');
  });

  test('Apply All Fixes in File, then File: Revert File: every finding is back', async () => {
    // The fixture's file with the most fixes.
    const byFile = new Map<string, LocatedIssue[]>();
    for (const l of fixtureIssues(await api()).filter((x) => x.issue.fix && x.issue.inArchive)) byFile.set(l.issue.path, [...(byFile.get(l.issue.path) ?? []), l]);
    const fixable = [...byFile.values()].sort((a, b) => b.length - a.length)[0] ?? [];
    assert.ok(fixable.length >= 2, `a file has several fixable findings (${fixable.length})`);
    const doc = await vscode.workspace.openTextDocument(fixable[0].uri);
    await vscode.window.showTextDocument(doc);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyAllFixesInFile', doc.uri), fixable.length);
    await waitFor('the fixed findings to leave', async () => (await Promise.all(fixable.map(present))).every((p) => !p));
    await vscode.commands.executeCommand('workbench.action.files.revert');
    for (const l of fixable) await cameBack(l, 'Revert File');
  });

  test('a fix saved, then the old text written outside the editor (git checkout): the finding is back, and the next full scan marks nothing new', async () => {
    const [l] = await fixableIn('src/db.ts');
    assert.ok(l, 'db.ts has a fixable finding');
    const doc = await applyOne(l);
    await doc.save();
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(!(await present(l)), 'saved with the fix: it stays out');
    await closeAllEditors();
    fs.writeFileSync(l.uri.fsPath, originals.get('src/db.ts')!);
    await cameBack(l, 'the old text written on disk');
    await scan('codeScanner.scanWorkspace');
    const a = await api();
    const fresh = fixtureIssues(a).filter((x) => x.issue.isNew);
    assert.deepStrictEqual(fresh.map((x) => `${x.issue.path}:${x.issue.line}`), [], 'nothing the folder had before is new');
  });
});
