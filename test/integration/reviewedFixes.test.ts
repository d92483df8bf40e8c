// Apply All Fixes… puts every applicable fix into one WorkspaceEdit that VS Code's refactor
// preview shows before anything changes; Apply there writes the kept fixes and takes their
// findings out of view, Discard changes nothing and keeps every finding. Export Findings…
// writes the findings as a SARIF 2.1.0 log (its schema is checked by the unit tests).
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { relativeUri } from '../../src/core/export';
import type { ReviewedFixesResult } from '../../src/editor/fixes/fixTargets';
import { api, closeAllEditors, fileUri, serviceIssues, scan, signIn, treeRootsOf, viewRows, waitFor, workspaceRoot } from './helpers';

const EDITED = ['scripts/report.py', 'src/db.ts', 'src/server.js', 'src/format.ts', 'src/pricing.js'];

/**
 * Runs Apply All Fixes… and answers its refactor preview with `answer` (the preview's own
 * Apply or Discard command, as its buttons run them) once the preview is showing.
 */
async function reviewAll(
  answer: 'refactorPreview.apply' | 'refactorPreview.discard', arg?: object, tickFocused = false, whileOpen?: () => Promise<boolean>,
): Promise<ReviewedFixesResult> {
  let settled: ReviewedFixesResult | undefined;
  // "Review in Preview…" in Apply All Fixes' question (answered here as its button would be).
  const run = Promise.resolve(vscode.commands.executeCommand<ReviewedFixesResult>('codeScanner.applyAllFixes', { ...arg, choice: 'review' })).then((r) => (settled = r));
  // Settled without a preview (nothing to offer): the caller's assertions say what it answered.
  if (whileOpen) await waitFor('the refactor preview to show its entries', async () => { await new Promise((r) => setTimeout(r, 500)); return !!settled || whileOpen(); }, 20_000);
  if (tickFocused) {
    // The preview's tick box of its focused entry, as Space in the preview toggles it, once the
    // preview shows its entries: before that the toggle reaches nothing (a busy machine draws late).
    await waitFor('the refactor preview to show its entries', async () => {
      const rows = await viewRows('Refactor Preview');
      if (rows === undefined) await new Promise((r) => setTimeout(r, 1500));
      return !!settled || rows === undefined || rows.length > 0;
    }, 20_000);
    await vscode.commands.executeCommand('refactorPreview.focus');
    await vscode.commands.executeCommand('list.focusFirst');
    await vscode.commands.executeCommand('refactorPreview.toggleCheckedState');
  }
  await waitFor('the refactor preview to take the answer', async () => {
    if (settled) return true;
    await vscode.commands.executeCommand(answer).then(undefined, () => undefined);
    await new Promise((r) => setTimeout(r, 300));
    return !!settled;
  }, 30_000);
  return run;
}

async function revertAllDirty(): Promise<void> {
  for (const doc of vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')) {
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
}

/**
 * Runs `act` answering the modal questions it asks (showInformationMessage with `modal`)
 * with `answer`; returns what they asked, question and detail, as the workbench got them.
 */
async function answeringQuestions<T>(answer: (buttons: string[]) => string | undefined, act: () => Thenable<T>): Promise<{ result: T; asked: { question: string; detail: string; buttons: string[] }[] }> {
  const window = vscode.window as { showInformationMessage: unknown };
  const original = window.showInformationMessage;
  const asked: { question: string; detail: string; buttons: string[] }[] = [];
  window.showInformationMessage = (message: string, ...rest: unknown[]) => {
    const o = rest[0] as vscode.MessageOptions | undefined;
    if (!o || typeof o !== 'object' || !o.modal) return (original as (...a: unknown[]) => unknown)(message, ...rest);
    const buttons = rest.slice(1).map((b) => (typeof b === 'string' ? b : (b as vscode.MessageItem).title));
    asked.push({ question: message, detail: o.detail ?? '', buttons });
    return Promise.resolve(answer(buttons));
  };
  try {
    return { result: await act(), asked };
  } finally {
    window.showInformationMessage = original;
  }
}

/** Signs in, and puts the files the suite edits back as they were when it ends. */
function keepingEditedFiles(): Map<string, string> {
  const originals = new Map<string, string>();
  suiteSetup(async () => {
    await api();
    await signIn();
    for (const rel of EDITED) if (fs.existsSync(fileUri(rel).fsPath)) originals.set(rel, fs.readFileSync(fileUri(rel).fsPath, 'utf8'));
  });
  suiteTeardown(async () => {
    await revertAllDirty();
    await closeAllEditors();
    for (const [rel, text] of originals) fs.writeFileSync(fileUri(rel).fsPath, text);
  });
  return originals;
}

suite('editor: Apply All Fixes…: one question, then every fix as one edit', () => {
  const originals = keepingEditedFiles();
  /** The edited files whose text on disk is not what the suite started with. */
  const changedOnDisk = () => [...originals].filter(([rel, text]) => fs.readFileSync(fileUri(rel).fsPath, 'utf8') !== text).map(([rel]) => rel);

  test('the question lists the fixes per file and classification; its main button applies every one; Undo takes them all back', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    await vscode.commands.executeCommand('codeScanner.groupBy', 'file');
    // A file's group: one file, so one Undo there takes the whole edit back.
    const group = treeRootsOf(a).find((g) => g.kind === 'group' && g.issues.filter((i) => i.fix && i.inArchive).length >= 2);
    assert.ok(group && group.kind === 'group', 'a file group with several fixes');
    const fixable = group.issues.filter((i) => i.fix && i.inArchive);
    const uri = fileUri(group.key);
    const before = fs.readFileSync(uri.fsPath, 'utf8');
    const { result, asked } = await answeringQuestions((b) => b.find((x) => /^Apply \d+ Fix/.test(x)), () => vscode.commands.executeCommand<ReviewedFixesResult>('codeScanner.applyAllFixes', group));
    assert.strictEqual(asked.length, 1, 'one question');
    assert.match(asked[0].question, new RegExp(`^Apply ${fixable.length} fixes in 1 file\\?$`));
    assert.ok(asked[0].detail.includes(group.key), asked[0].detail);
    for (const i of fixable) assert.ok(asked[0].detail.includes(i.classificationName), `the question names ${i.classificationName}`);
    assert.deepStrictEqual(asked[0].buttons, [`Apply ${fixable.length} Fixes`, 'Review in Preview…']);
    assert.strictEqual(result.applied, fixable.length, 'every fix applied');
    for (const i of fixable) assert.ok(!a.issues().some((l) => l.issue.id === i.id), 'its finding left the view');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.notStrictEqual(doc.getText(), before);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(doc.getText(), before, 'one Undo takes every fix back');
    await waitFor('every finding to come back', () => fixable.every((i) => a.issues().some((l) => l.issue.id === i.id)));
  });

  test('across the workspace: every applicable fix of every file in one go, and what cannot be applied is said with why', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const fixable = a.issues().filter((l) => l.issue.fix && l.issue.inArchive);
    const { result, asked } = await answeringQuestions((b) => b[0], () => vscode.commands.executeCommand<ReviewedFixesResult>('codeScanner.applyAllFixes'));
    assert.strictEqual(asked.length, 1);
    assert.strictEqual(result.applied, result.offered, 'all of them, not none');
    assert.strictEqual(result.offered + result.refused.length, fixable.length);
    const files = new Set(fixable.map((l) => l.issue.path));
    assert.match(asked[0].question, new RegExp(`^Apply ${result.offered} fix(es)? in \\d+ files?\\?$`));
    for (const f of files) if (result.refused.every((r) => !r.finding.includes(f))) assert.ok(asked[0].detail.includes(f), `${f} is listed`);
    if (result.refused.length) assert.match(asked[0].detail, /Not applicable, left as they are/);
    assert.deepStrictEqual(changedOnDisk(), [], 'the files are changed, not saved');
    await revertAllDirty();
    assert.deepStrictEqual(changedOnDisk(), [], 'nothing was saved while reverting');
  });

  test('Review in Preview…: each entry is labelled with its classification, file and line; nothing is ticked until chosen, and it says so', async () => {
    const a = await api();
    // The fixes the test before applied are reverted in every editor before this scan places its findings.
    await revertAllDirty();
    await waitFor('no edited file left', () => !vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.scheme === 'file'));
    const scanId = await scan('codeScanner.scanWorkspace');
    const earlier = a.notifications().at(-1)?.seq ?? 0;
    const fixable = a.issues().filter((l) => l.issue.fix && l.issue.inArchive);
    if (fixable.length < 2) {
      // Its premise failed: say which side lost the fixes (the files on disk, the service, the view).
      assert.fail(JSON.stringify({
        changedOnDisk: changedOnDisk(),
        service: (await serviceIssues(scanId)).map((i) => `${i.location.file.path}:${i.location.line_number}${i.auto_fix_suggestion?.patch ? ' fix' : ''}`),
        view: a.issues().map((l) => `${l.issue.path}:${l.issue.line}${l.issue.fix ? ' fix' : ''}${l.issue.inArchive ? '' : ' not archived'}`),
      }));
    }
    let labels: string[] | undefined;
    const r = await reviewAll('refactorPreview.discard', undefined, false, async () => {
      // Each fix one entry at the top (the list draws only the rows in sight): folded, they all are.
      await vscode.commands.executeCommand('refactorPreview.focus');
      await vscode.commands.executeCommand('list.collapseAll').then(undefined, () => undefined);
      labels = await viewRows('Refactor Preview');
      return labels === undefined || labels.some((t) => fixable.some((l) => t.includes(l.issue.classificationName) && /line \d+/.test(t)));
    });
    assert.ok(r.offered >= 2, JSON.stringify(r));
    const said = a.notifications(earlier).find((n) => /nothing is applied until you tick it/.test(n.text));
    assert.ok(said, 'the preview is explained');
    assert.match(said.text, /Group Changes By File in its title bar and tick a file to take all of its fixes/);
    if (labels) {
      // The list draws only the rows in sight: each row drawn is one fix's own entry, with its
      // classification, its line and its own explanation, never another fix's.
      const entries = labels.filter((t) => /line \d+/.test(t));
      assert.ok(entries.length >= 2, labels.join(' | '));
      for (const t of entries) {
        const own = fixable.find((l) => t.includes(l.issue.classificationName) && t.includes(`${l.issue.path} line ${l.issue.range!.start.line + 1}`));
        assert.ok(own, `${t}: no fixable finding of that classification at that line`);
        assert.ok(t.includes(own.issue.fix!.explanation.slice(0, 40)), `${t} explains its own fix (${own.issue.fix!.explanation})`);
      }
    }
  });
});

suite('editor: Apply All Fixes… (refactor preview) and Export Findings… (SARIF)', () => {
  const originals = keepingEditedFiles();

  test('Discard in the preview changes nothing and keeps every finding', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const before = a.issues().length;
    const texts = [...originals].map(([rel]) => fs.readFileSync(fileUri(rel).fsPath, 'utf8'));
    const r = await reviewAll('refactorPreview.discard');
    assert.ok(r.offered >= 2, `several fixes offered (${JSON.stringify(r)})`);
    assert.strictEqual(r.applied, 0);
    assert.strictEqual(a.issues().length, before, 'every finding is still in view');
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.scheme === 'file'), 'no file was changed');
    assert.deepStrictEqual([...originals].map(([rel]) => fs.readFileSync(fileUri(rel).fsPath, 'utf8')), texts);
  });

  test('Apply in the preview writes the ticked fixes, takes exactly their findings out of view and keeps the rest', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const fixable = a.issues().filter((l) => l.issue.fix && l.issue.inArchive);
    // VS Code's preview starts with every entry that needs confirmation unticked; the test
    // ticks the first node (a file or a classification, with all of its fixes).
    const r = await reviewAll('refactorPreview.apply', undefined, true);
    assert.ok(r.offered >= 2 && r.applied > 0 && r.applied < r.offered, JSON.stringify(r));
    assert.strictEqual(r.offered + r.refused.length, fixable.length, 'every fixable finding was offered or refused with a reason');
    for (const x of r.refused) assert.ok(x.reason.length > 10, `a reason for ${x.finding}`);
    const left = new Set(a.issues().map((l) => l.issue.id));
    const gone = fixable.filter((l) => !left.has(l.issue.id));
    assert.strictEqual(gone.length, r.applied, 'the findings of the ticked fixes left the view');
    assert.strictEqual(fixable.length - gone.length, r.offered - r.applied + r.refused.length, 'the unticked ones stayed');
    const changed = new Set(gone.map((l) => l.uri.toString()));
    for (const uri of changed) {
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
      assert.ok(doc?.isDirty, `${uri} was edited, not saved`);
    }
    // The ticked node is one file: Undo there takes its fixes back, and their findings return.
    assert.strictEqual(changed.size, 1, `the ticked fixes are in one file (${[...changed].join(', ')})`);
    await vscode.window.showTextDocument(vscode.Uri.parse([...changed][0]!));
    await vscode.commands.executeCommand('undo');
    await waitFor('the fixed findings to come back', () => gone.every((l) => a.issues().some((x) => x.issue.id === l.issue.id)));
    await revertAllDirty();
  });

  test('from a tree group: only the fixes of that group are offered', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    await vscode.commands.executeCommand('codeScanner.groupBy', 'file');
    const groups = treeRootsOf(a);
    const group = groups.find((g) => g.kind === 'group' && g.issues.filter((i) => i.fix && i.inArchive).length >= 2);
    assert.ok(group && group.kind === 'group', 'a file group with several fixes');
    const r = await reviewAll('refactorPreview.discard', group as object);
    assert.strictEqual(r.offered + r.refused.length, group.issues.filter((i) => i.fix && i.inArchive).length);
  });

  test('Export Findings… writes a SARIF 2.1.0 log of every finding, fixes and CWE rules included', async () => {
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sarif-'));
    const out = path.join(dir, 'findings.sarif');
    try {
      const r = await vscode.commands.executeCommand<{ findings: number; runs: number }>('codeScanner.exportFindings', { uri: vscode.Uri.file(out).toString() });
      const log = JSON.parse(fs.readFileSync(out, 'utf8')) as { version: string; $schema: string; runs: { results: { ruleId: string; fixes?: unknown[]; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[]; tool: { driver: { rules: { id: string; helpUri?: string }[] } } }[] };
      assert.strictEqual(log.version, '2.1.0');
      assert.strictEqual(r.findings, a.issues().length);
      assert.strictEqual(log.runs.reduce((n, run) => n + run.results.length, 0), a.issues().length);
      const results = log.runs.flatMap((run) => run.results);
      assert.ok(results.some((x) => x.fixes?.length), 'fixes are exported');
      assert.ok(log.runs[0]!.tool.driver.rules.some((rule) => rule.helpUri?.startsWith('https://cwe.mitre.org/')), 'CWE rules link their pages');
      const paths = new Set(a.issues().map((l) => relativeUri(l.issue.path)));
      for (const x of results) assert.ok(paths.has(x.locations[0]!.physicalLocation.artifactLocation.uri));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Export Findings… never writes through a link the repository committed, and proposes a place outside the workspace', async () => {
    const a = await api();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'sarif-victim-'));
    const victim = path.join(outside, 'victim.txt');
    fs.writeFileSync(victim, 'precious\n');
    const link = path.join(workspaceRoot(), 'code-scanner-findings.sarif');
    fs.symlinkSync(victim, link);
    const earlier = a.notifications().at(-1)?.seq ?? 0;
    try {
      const r = await vscode.commands.executeCommand('codeScanner.exportFindings', { uri: vscode.Uri.file(link).toString() });
      assert.strictEqual(r, undefined, 'nothing was exported');
      assert.strictEqual(fs.readFileSync(victim, 'utf8'), 'precious\n', 'the file behind the link is untouched');
      const said = await waitFor('the refusal', () => a.notifications(earlier).find((n) => /symbolic link/.test(n.text))).catch((e: Error) => { throw new Error(`${e.message}: ${JSON.stringify(a.notifications(earlier))}`); });
      assert.strictEqual(said.severity, 'error');
      // Asked without an argument, the save dialog proposes the home folder, never the workspace.
      let proposed: vscode.Uri | undefined;
      const original = vscode.window.showSaveDialog;
      (vscode.window as { showSaveDialog: typeof original }).showSaveDialog = async (o) => { proposed = o?.defaultUri; return undefined; };
      try {
        await vscode.commands.executeCommand('codeScanner.exportFindings');
      } finally {
        (vscode.window as { showSaveDialog: typeof original }).showSaveDialog = original;
      }
      assert.ok(proposed, 'a place was proposed');
      assert.strictEqual(path.dirname(proposed.fsPath), os.homedir());
      assert.ok(!proposed.fsPath.startsWith(workspaceRoot()), proposed.fsPath);
      // The proposed place in the home folder is itself a link (another program planted it),
      // and the person takes the proposal: nothing is written through it.
      const home = proposed.fsPath;
      if (!fs.existsSync(home)) {
        fs.symlinkSync(victim, home);
        const before = a.notifications().at(-1)?.seq ?? 0;
        (vscode.window as { showSaveDialog: typeof original }).showSaveDialog = async (o) => o?.defaultUri;
        try {
          assert.strictEqual(await vscode.commands.executeCommand('codeScanner.exportFindings'), undefined, 'nothing was exported');
          assert.strictEqual(fs.readFileSync(victim, 'utf8'), 'precious\n', 'the file behind the link in the home folder is untouched');
          assert.ok(fs.lstatSync(home).isSymbolicLink(), 'the link is left as it was');
          await waitFor('the refusal', () => a.notifications(before).find((n) => /symbolic link/.test(n.text))).catch((e: Error) => { throw new Error(`${e.message}: ${JSON.stringify(a.notifications(before))}`); });
        } finally {
          (vscode.window as { showSaveDialog: typeof original }).showSaveDialog = original;
          fs.rmSync(home, { force: true });
        }
      }
    } finally {
      fs.rmSync(link, { force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
