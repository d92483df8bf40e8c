// Results survive a reload: the results store persists into the workspace's Memento (and its
// findings into a results file when it has one), and a new store over the same state (what
// activate() builds after a reload) restores every finding, its scans, the classification
// filter and the ranges tracked through edits since.
import * as assert from 'assert';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { toDiagnostic } from '../../src/editor/results/diagnostics';
import { ResultsStore } from '../../src/editor/results/resultsStore';
import { api, fileUri, fixtureIssues, folderUriOf, revert, scan, signIn, waitFor, workspaceRoot } from './helpers';

/** workspaceState keeps JSON; so does this one, so whatever does not survive JSON is caught. */
class JsonMemento implements vscode.Memento {
  private readonly data = new Map<string, string>();
  keys(): readonly string[] {
    return [...this.data.keys()];
  }
  size(): number {
    return [...this.data.values()].reduce((n, v) => n + v.length, 0);
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    const raw = this.data.get(key);
    return raw === undefined ? defaultValue : JSON.parse(raw) as T;
  }
  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
}

/** What a reload must bring back: each finding (as JSON, like the state) and its diagnostic's range. */
const snapshot = (store: ResultsStore) =>
  store.all().map((l) => {
    const r = toDiagnostic(l.issue).range;
    return { folderUri: l.folderUri, uri: l.uri.toString(), issue: JSON.parse(JSON.stringify(l.issue)) as unknown, diagnostic: [r.start.line, r.start.character, r.end.line, r.end.character] };
  }).sort((x, y) => x.uri.localeCompare(y.uri) || JSON.stringify(x.issue).localeCompare(JSON.stringify(y.issue)));

suite('editor: results survive a reload', () => {
  const rel = 'src/db.ts';

  suiteSetup(async () => {
    await api();
    await signIn();
  });

  suiteTeardown(async () => {
    await revert(fileUri(rel));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  for (const mode of ['Memento only', 'results file'] as const) {
  test(`${mode}: a new results store over the same workspace state restores findings, scans, filter and tracked ranges`, async () => {
    const a = await api();
    const scanId = await scan('codeScanner.scanWorkspace');
    const folderUri = folderUriOf(workspaceRoot());
    const found = fixtureIssues(a).map((l) => ({ ...l.issue, range: undefined, lineText: undefined }));
    assert.ok(found.some((i) => i.path === rel), `${rel} has findings`);

    const memento = new JsonMemento();
    const dir = mkdtempSync(path.join(tmpdir(), 'results-'));
    const file = mode === 'results file' ? path.join(dir, 'results.jsonl') : undefined;
    const first = new ResultsStore(memento, file);
    let second: ResultsStore | undefined;
    try {
      const scanRef = { scanId, projectId: 1, scannedAt: new Date().toISOString() };
      await first.apply(folderUri, { kind: 'completed', findings: { scan: scanRef, issues: found, archived: undefined, unreadable: 0 } });
      await first.setClassificationFilter('CWE-89');
      const placed = first.all().find((l) => l.issue.path === rel)!;
      const line = placed.issue.range!.start.line;

      // Lines typed above a finding move it; the moved range is what must come back.
      const editor = await vscode.window.showTextDocument(fileUri(rel));
      assert.ok(await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// one\n// two\n')));
      await waitFor('the first store to follow the edit', () => first.get({ folderUri, issueId: placed.issue.id })?.issue.range?.start.line === line + 2);
      const before = snapshot(first);
      assert.strictEqual(before.length, found.length);

      // A reload: the old store is disposed (flushing its pending write), a new one reads the state.
      first.dispose();
      if (file) {
        // The findings are in the file, not in the Memento that VS Code copies whole on every write.
        assert.ok(statSync(file).size > memento.size(), `results file ${statSync(file).size} bytes, Memento ${memento.size()}`);
        assert.strictEqual(memento.get<{ folders?: unknown }>('codeScanner.results')?.folders, undefined, 'no finding in the Memento');
      }
      second = new ResultsStore(memento, file);
      await second.ready;
      assert.deepStrictEqual(snapshot(second), before);
      assert.deepStrictEqual(second.scansOf(folderUri), [scanRef]);
      assert.strictEqual(second.classificationFilter, 'CWE-89');
      assert.strictEqual(second.hasResults(), true);
      assert.strictEqual(second.get({ folderUri, issueId: placed.issue.id })?.issue.range?.start.line, line + 2);
    } finally {
      first.dispose();
      second?.dispose();
      rmSync(dir, { recursive: true, force: true });
      await revert(fileUri(rel));
      // Each store sets the results context key; give it back to the extension's own store.
      await vscode.commands.executeCommand('setContext', 'codeScanner.hasResults', a.issues().length > 0);
    }
  });
  }
});
