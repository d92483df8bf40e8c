// What a screen reader hears and what the keyboard reaches, read from the workbench as
// Chromium exposes it: tree rows carry every mark they show (a likely false positive, a
// stale finding, a dismissed one); Upload Preview and policy detail rows say their counts,
// sizes and fields; confirmations are notifications (announced); the fix preview's Apply
// and Discard are in the palette with keys; focus stays on the Details page's control, and
// on a finding's row when it is dismissed or restored from the view's context menu.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { LocatedIssue } from '../../src/editor/results/resultsStore';
import {
  api, closeAllEditors, contextMenu, detailsPage, fileUri, fixtureIssues, focused, injectIssues, pressKeys, quickInput, scan, signIn, viewRows, waitFor,
} from './helpers';

/** The workspace scanned afresh, and its first finding that `pick` takes. */
async function scannedFinding(pick: (l: LocatedIssue) => boolean): Promise<LocatedIssue> {
  const a = await api();
  await scan('codeScanner.scanWorkspace');
  const l = fixtureIssues(a).find(pick);
  assert.ok(l, 'a finding to try it on');
  return l;
}

/** Takes back what a test changed in the active editor. */
async function undoAndRevert(): Promise<void> {
  await vscode.commands.executeCommand('undo');
  await vscode.commands.executeCommand('workbench.action.files.revert');
}

suite('editor: accessibility', () => {
  suiteSetup(async () => {
    await api();
    await signIn();
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('codeScanner.closeUploadPreview');
    await closeAllEditors();
  });

  test('tree rows are read with what they show: likely false positive, code changed since the scan, dismissed with its reason', async function () {
    this.timeout(60_000);
    const a = await api();
    const scanId = await scan('codeScanner.scanWorkspace');
    const target = fixtureIssues(a).find((l) => !l.issue.falsePositive)!;
    assert.ok(await vscode.commands.executeCommand('codeScanner.dismissFinding', { folderUri: target.folderUri, issueId: target.issue.id, reason: 'accepted-risk' }));
    // A finding of a file changed since the scan, never placed here: listed as stale.
    const doc = await vscode.workspace.openTextDocument(target.uri);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// moved\n'));
    await injectIssues(scanId, [
      { id: 'a11y-late', urgency: 'high', classification: { id: 'CWE-89', name: 'SQL Injection' }, location: { file: { path: target.issue.path }, line_number: 2 } },
      // Auto-triage's verdict: likely a false positive.
      { id: 'a11y-fp', urgency: 'low', classification: { id: 'CWE-489', name: 'Active Debug Code' }, location: { file: { path: 'package.json' }, line_number: 1 }, auto_triage: { false_positive_detection: { status: 'false_positive', reasoning: 'a manifest' } } },
    ]);
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.refreshResults'), true);
    try {
      await vscode.commands.executeCommand('codeScanner.issues.focus');
      if (!(await viewRows('Quality Issues'))) this.skip();
      // Read again until the view has drawn the refreshed results (and the Dismissed group is
      // open). A folder row an earlier test collapsed stays so (VS Code keeps it): opened too;
      // and the view alone in the side bar, so that it has room to draw every row.
      let rows: string[] = [];
      // Revealing the findings read below has the tree resolve and open every row above them
      // (the first test of a run reads a view VS Code is still filling).
      const reveal = async (issueId: string, folderUri = target.folderUri) => vscode.commands.executeCommand('codeScanner.revealInTree', { folderUri, issueId });
      await waitFor('the rows', async () => {
        await reveal(target.issue.id);
        await reveal('a11y-late');
        for (const f of vscode.workspace.workspaceFolders ?? []) await reveal('a11y-fp', f.uri.toString());
        await viewRows('Quality Issues', { expand: 'Folder ', alone: true });
        rows = (await viewRows('Quality Issues', { expand: 'Dismissed' })) ?? [];
        return rows.some((r) => /likely false positive/.test(r)) && rows.some((r) => /dismissed: /.test(r)) && rows.some((r) => /code changed since the scan/.test(r));
      }, 15_000).catch(() => undefined);
      const heard = rows.join('\n');
      assert.ok(rows.some((r) => /likely false positive/.test(r)), heard);
      assert.ok(rows.some((r) => /SQL Injection, CWE 89, .* line \d+, .*code changed since the scan/.test(r)), heard);
      assert.ok(rows.some((r) => /^Dismissed, 1 finding/.test(r)), heard);
      assert.ok(rows.some((r) => /dismissed: accepted risk/.test(r)), heard);
      assert.ok(rows.some((r) => /^src\/[\w.]+, \d+ issues?$/.test(r)), `file groups say their count: ${heard}`);
      assert.ok(!rows.some((r) => /CWE-\d/.test(r)), `ids are read as words, not "CWE minus": ${heard}`);
    } finally {
      await vscode.commands.executeCommand('codeScanner.restoreFinding', { folderUri: target.folderUri, issueId: target.issue.id });
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
  });

  test('Upload Preview rows say their counts and sizes; policy detail rows say their field', async function () {
    this.timeout(60_000);
    // A credentials file, so the folder has a "Left out" row.
    fs.writeFileSync(fileUri('.env').fsPath, 'TOKEN=placeholder\n');
    try {
      await checkUploadPreviewRows(this);
    } finally {
      fs.rmSync(fileUri('.env').fsPath, { force: true });
    }
    await vscode.commands.executeCommand('codeScanner.closeUploadPreview');
    await vscode.commands.executeCommand('codeScanner.policies.focus');
    await vscode.commands.executeCommand('codeScanner.policies.refresh');
    const policies = await waitFor('policy rows', async () => { const r = await viewRows('Policies'); return r?.some((x) => /^Policy /.test(x)) && r; }, 20_000);
    const first = policies.find((r) => /^Policy /.test(r))!;
    // Its detail rows come from the extension host after the click: read again until they are drawn.
    let opened: string[] = [];
    await waitFor('the policy\'s detail rows', async () => {
      opened = (await viewRows('Policies', { expand: first.slice(0, 40) })) ?? [];
      return opened.some((r) => /^CWEs: (CWE-\d+|none)/.test(r));
    }, 20_000).catch(() => undefined);
    assert.ok(opened.some((r) => /^CWEs: (CWE-\d+|none)/.test(r)), opened.join('\n'));
  });

  async function checkUploadPreviewRows(t: Mocha.Context): Promise<void> {
    await vscode.commands.executeCommand('codeScanner.previewUpload');
    if (!(await viewRows('Upload Preview'))) t.skip();
    const expected: [string, RegExp][] = [
      ['folder', /^Folder .+, project .+ · \d+ files?, [\d.]+ (B|KB|MB)/],
      ['uploaded', /^Uploaded, \d+ files?, [\d.]+ (B|KB|MB)$/],
      ['a folder of files', /^Folder src, uploaded: \d+ files?, [\d.]+ (B|KB)$/],
      ['a file with its size', /^package\.json, uploaded, \d+ B$/],
      ['left out', /^Left out, \d+ files?$/],
    ];
    // Read again until the view has drawn them (the Uploaded group opened if it is folded).
    let rows: string[] = [];
    await waitFor('the Upload Preview rows', async () => {
      rows = (await viewRows('Upload Preview', { expand: 'Uploaded' })) ?? [];
      return expected.every(([, re]) => rows.some((r) => re.test(r)));
    }, 20_000).catch(() => undefined);
    for (const [what, re] of expected) assert.ok(rows.some((r) => re.test(r)), `${what}: ${rows.join('\n')}`);
  }

  test('confirmations are announced: a finished scan, a dismissal, an applied fix', async function () {
    this.timeout(60_000);
    const a = await api();
    const seq = a.notifications().at(-1)?.seq ?? 0;
    const l = await scannedFinding((x) => !!x.issue.fix && x.issue.inArchive === true && !x.issue.stale);
    assert.ok(await vscode.commands.executeCommand('codeScanner.dismissFinding', { folderUri: l.folderUri, issueId: l.issue.id, reason: 'wont-fix' }));
    await vscode.commands.executeCommand('codeScanner.restoreFinding', { folderUri: l.folderUri, issueId: l.issue.id });
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: l.folderUri, issueId: l.issue.id }), 1);
    try {
      const said = a.notifications(seq).map((n) => n.text);
      assert.ok(said.some((t) => /Scan finished: /.test(t)), said.join('\n'));
      assert.ok(said.some((t) => /Finding dismissed here as won't fix/.test(t)), said.join('\n'));
      assert.ok(said.some((t) => /Finding restored/.test(t)), said.join('\n'));
      assert.ok(said.some((t) => /Applied the fix for /.test(t)), said.join('\n'));
    } finally {
      await undoAndRevert();
    }
  });

  test('the fix preview\'s Apply and Discard are in the Command Palette with keys, and the key applies the fix', async function () {
    this.timeout(60_000);
    const a = await api();
    const l = await scannedFinding((x) => !!x.issue.fix && x.issue.inArchive === true && !x.issue.stale);
    await closeAllEditors();
    assert.ok(await vscode.commands.executeCommand('codeScanner.previewFix', { folderUri: l.folderUri, issueId: l.issue.id }));
    await vscode.commands.executeCommand('workbench.action.showCommands');
    const palette = await quickInput({ type: '>Code Scanner: ' });
    if (!palette) {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      this.skip();
    }
    // The palette's rows follow what was typed a moment later on a busy machine: read them
    // until the command shows (or the wait ends, and the assertion below prints what was there).
    const rowsFor = async (title: string) => {
      let rows: string[] = [];
      await waitFor(`"${title}" in the palette`, async () => {
        rows = (await quickInput({ type: `>${title}` }))?.rows ?? [];
        return rows.some((r) => r.includes(title));
      }).catch(() => undefined);
      return rows;
    };
    const listed = await rowsFor('Code Scanner: Apply Fix');
    const discard = await rowsFor('Code Scanner: Discard Fix');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.ok(listed.some((r) => /Code Scanner: Apply Fix/.test(r) && /Ctrl\+Alt\+Enter/i.test(r)), listed.join('\n'));
    assert.ok(discard.some((r) => /Code Scanner: Discard Fix/.test(r) && /Ctrl\+Alt\+Backspace/i.test(r)), discard.join('\n'));
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    const before = a.issues().length;
    await pressKeys('Control+Alt+Enter');
    try {
      await waitFor('the fix applied by its key', () => !a.issues().some((x) => x.issue.id === l.issue.id));
      assert.strictEqual(a.issues().length, before - 1);
      await waitFor('the preview to close', () => !vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'code-scanner-fix'));
    } finally {
      await vscode.window.showTextDocument(l.uri);
      await undoAndRevert();
    }
  });

  test('Dismiss and Restore from a row of the view, by keyboard, keep focus on that finding', async function () {
    this.timeout(90_000);
    const l = await scannedFinding((x) => !x.issue.stale && !x.issue.falsePositive);
    const ref = { folderUri: l.folderUri, issueId: l.issue.id };
    await vscode.commands.executeCommand('codeScanner.issues.focus');
    if (!(await viewRows('Quality Issues'))) this.skip();
    // The row of that finding focused, as arrow keys or a reveal leave it.
    const onRow = (f: { view: string; row: string } | undefined) =>
      !!f && /quality issues/i.test(f.view) && f.row.includes(l.issue.classificationName) && f.row.includes(`${l.issue.path} line `);
    await waitFor('focus on the finding\'s row', async () => {
      await vscode.commands.executeCommand('codeScanner.revealInTree', ref);
      return onRow(await focused());
    }, 15_000);
    const menu = await contextMenu('Dismiss');
    assert.ok(menu?.chosen, `the row's context menu offers Dismiss: ${JSON.stringify(menu)}`);
    await waitFor('the reasons', async () => (await quickInput())?.visible);
    await quickInput({ type: 'Accepted risk', enter: true });
    try {
      // Focus follows the finding into the Dismissed group: the next key acts on it, and a
      // screen reader says where it went.
      await waitFor('focus on the dismissed row', async () => { const f = await focused(); return onRow(f) && /dismissed: accepted risk/.test(f!.row); }, 15_000);
      const back = await contextMenu('Restore');
      assert.ok(back?.chosen, `the dismissed row's context menu offers Restore: ${JSON.stringify(back)}`);
      await waitFor('focus on the restored row', async () => { const f = await focused(); return onRow(f) && !/dismissed/.test(f!.row); }, 15_000);
    } finally {
      await vscode.commands.executeCommand('codeScanner.restoreFinding', ref);
    }
  });

  test('Ctrl+Enter on a row reached by the arrow keys opens that finding\'s details', async function () {
    this.timeout(60_000);
    const a = await api();
    const l = await scannedFinding((x) => !x.issue.stale);
    await vscode.commands.executeCommand('codeScanner.issues.focus');
    if (!(await viewRows('Quality Issues'))) this.skip();
    await vscode.commands.executeCommand('codeScanner.revealInTree', { folderUri: l.folderUri, issueId: l.issue.id });
    // Down until focus is on another finding's row: focus moves, the selection stays behind.
    let row = '';
    for (let i = 0; i < 6; i++) {
      await pressKeys('ArrowDown');
      const f = await focused();
      if (f && / line \d+/.test(f.row) && !f.row.includes(`${l.issue.path} line ${l.issue.range!.start.line + 1}`)) { row = f.row; break; }
    }
    assert.ok(row, 'focus reached another finding by the arrow keys');
    await pressKeys('Control+Enter');
    const shown = await waitFor('the details of the focused row', () => a.details());
    const issue = a.issues().find((x) => x.issue.id === shown.ref.issueId)!.issue;
    assert.ok(row.includes(issue.classificationName) && row.includes(`${issue.path} line ${issue.range!.start.line + 1}`), `the page is the focused row's finding (${row}), not another's (${issue.classificationName} ${issue.path})`);
    await closeAllEditors();
  });

  test('the Details page keeps focus on its control after Dismiss and says what changed, and stays as it is while other files change', async function () {
    this.timeout(60_000);
    const a = await api();
    const l = await scannedFinding((x) => !x.issue.stale);
    assert.ok(await vscode.commands.executeCommand('codeScanner.showDetails', { folderUri: l.folderUri, issueId: l.issue.id }));
    const page = await waitFor('the details page', async () => { const p = await detailsPage(); return p === undefined ? { open: false, none: true } : p.open && p; }, 15_000);
    if ('none' in page) this.skip();
    assert.strictEqual(page.focused, 'title', 'it opens at the title');
    // Dismiss…, as a person presses it; the reason is chosen in the quick pick it opens.
    await detailsPage({ click: 'dismiss' });
    await waitFor('the reasons', async () => (await quickInput())?.visible);
    await quickInput({ type: 'Accepted risk', enter: true });
    try {
      // The page says what changed a moment after it takes focus (detailsHtml.ts), so that a
      // screen reader announces it: on a busy machine the focus came first by more than a poll.
      const after = await waitFor('the page drawn again with Restore focused, and what changed said', async () => {
        const p = await detailsPage();
        return p?.focused === 'restore' && !!p.live && p;
      }, 15_000);
      assert.match(after.live ?? '', /Dismissed in this workspace as accepted risk/);
      // Typing in another file moves that file's findings; the page says nothing new, so it
      // is not drawn again (that would put focus and a screen reader back at its title).
      const drawn = a.details()?.html;
      const other = fixtureIssues(a).find((x) => x.uri.toString() !== l.uri.toString() && !!x.issue.range);
      assert.ok(other && drawn, 'another file with a finding, and the page');
      const line0 = other.issue.range!.start.line;
      const edit = new vscode.WorkspaceEdit();
      edit.insert(other.uri, new vscode.Position(0, 0), '\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      try {
        await waitFor('the other file\'s finding to move', () => a.issues().some((x) => x.issue.id === other.issue.id && x.issue.range?.start.line === line0 + 1));
        await new Promise((r) => setTimeout(r, 300));
        assert.strictEqual(a.details()?.html, drawn, 'the page was not drawn again');
        assert.strictEqual((await detailsPage())?.focused, 'restore', 'focus stays where it was');
      } finally {
        await vscode.window.showTextDocument(other.uri);
        await undoAndRevert();
      }
    } finally {
      await vscode.commands.executeCommand('codeScanner.restoreFinding', { folderUri: l.folderUri, issueId: l.issue.id });
    }
  });
});
