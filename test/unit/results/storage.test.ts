// The findings' storage: what a reload reads back is what was written (scans waited for and
// the last attempt included), and a damaged or hand-edited results file drops the folder it
// damaged, whole and said why, instead of breaking every view.
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { ResultsStorage, STATE_KEY, readRecords, readRecordsInSlices, type KeyValueState, type Snapshot } from '../../../src/core/results';
import { FOLDER, completed, issue, model, scanRef } from './helpers';

class MapState implements KeyValueState {
  readonly data = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const v = this.data.get(key);
    return v === undefined ? undefined : JSON.parse(v) as T;
  }
  update(key: string, value: unknown): Thenable<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
}

async function tempFile(): Promise<string> {
  return path.join(await fsp.mkdtemp(path.join(tmpdir(), 'results-storage-')), 'results.jsonl');
}

for (const withFile of [true, false]) {
  test(`a reload reads back findings, scans, the scan still on the service and the last attempt (${withFile ? 'results file' : 'state only'})`, async () => {
    const m = model();
    const base = scanRef('base');
    await m.apply(FOLDER, completed(base, [issue('1', 'a.js', 3), issue('2', 'b.js')]));
    const waiting = scanRef('waiting');
    await m.apply(FOLDER, { kind: 'uploaded', scan: waiting });
    m.noteAttempt(FOLDER, { kind: 'error', detail: 'the upload stopped' });
    m.dismiss([{ folderUri: FOLDER, issue: m.get(FOLDER, '2')! }], 'wont-fix');
    const state = new MapState();
    const file = withFile ? await tempFile() : undefined;
    const snap = (): Snapshot => ({ ...m.snapshot(), classificationFilter: 'CWE' });
    await new ResultsStorage(state, file, snap).write();
    const again = new ResultsStorage(state, file, () => ({ folders: [], dismissals: {} }));
    const { snapshot, fileToRead } = again.initial();
    assert.equal(fileToRead, withFile);
    const folders = withFile ? (await again.readFile()).folders : snapshot.folders;
    assert.deepEqual(JSON.parse(JSON.stringify(folders)), JSON.parse(JSON.stringify(m.snapshot().folders)));
    assert.equal(snapshot.classificationFilter, 'CWE');
    assert.deepEqual(Object.values(snapshot.dismissals).map((d) => d.reason), ['wont-fix']);
    const reloaded = model();
    reloaded.load(folders, snapshot.dismissals);
    assert.deepEqual(reloaded.pendingOf(FOLDER).map((p) => [p.scanId, p.waiting]), [['waiting', true]]);
    assert.equal(reloaded.lastAttemptOf(FOLDER)?.detail, 'the upload stopped');
    assert.equal(reloaded.dismissalOf(reloaded.get(FOLDER, '2')!)?.reason, 'wont-fix');
  });
}

test('a null line, a hand-edited line number and a path out of the folder each drop their folder whole, said why; other folders load', () => {
  const good = { kind: 'folder', folderUri: 'file:///good', scans: [{ scanId: 's', scannedAt: '2026-11-25T10:00:00Z' }] };
  const finding = (over: Record<string, unknown>) => ({ ...issue('1', 'a.js'), ...over });
  const records = [
    good, { kind: 'issues', folderUri: 'file:///good', issues: [finding({})] },
    null,
    { kind: 'folder', folderUri: 'file:///edited', scans: [] },
    { kind: 'issues', folderUri: 'file:///edited', issues: [finding({ line: '<img src=x onerror=alert(1)>' })] },
    { kind: 'folder', folderUri: 'file:///outside', scans: [] },
    { kind: 'issues', folderUri: 'file:///outside', issues: [finding({ path: '../../etc/passwd' })] },
    { kind: 'issues', folderUri: 'file:///orphan', issues: [finding({})] },
  ];
  const { folders, dropped } = readRecords(records);
  assert.deepEqual(folders.map((f) => [f.folderUri, f.issues.length]), [['file:///good', 1]]);
  assert.equal(dropped.length, 4, dropped.join('\n'));
  assert.ok(dropped.some((d) => d.startsWith('file:///edited') && /line/.test(d)), dropped.join('\n'));
  assert.ok(dropped.some((d) => d.startsWith('file:///outside') && /outside the folder/.test(d)), dropped.join('\n'));
  assert.ok(dropped.some((d) => d.startsWith('file:///orphan') && /before their folder/.test(d)), dropped.join('\n'));
  assert.ok(dropped.some((d) => /line 3/.test(d)), 'the null line is named');
});

test('read a slice at a time, twenty thousand findings give the same folders and reasons as read at once, and the event loop runs meanwhile', async () => {
  const records: unknown[] = [];
  for (const name of ['a', 'b', 'c']) {
    records.push({ kind: 'folder', folderUri: `file:///${name}`, scans: [{ scanId: name, scannedAt: '2026-11-25T10:00:00Z' }] });
    for (let r = 0; r < 14; r++) {
      records.push({ kind: 'issues', folderUri: `file:///${name}`, issues: Array.from({ length: 500 }, (_, i) => ({ ...issue(`${name}-${r}-${i}`, `src/f${i % 50}.js`, 1 + i) })) });
    }
  }
  // One bad finding deep in folder b: b is dropped whole, in both readings.
  (records[20] as { issues: Record<string, unknown>[] }).issues[300]!.line = 'x';
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const sliced = await readRecordsInSlices(records, 2);
  clearInterval(timer);
  const whole = readRecords(records);
  assert.deepEqual(sliced, whole);
  assert.deepEqual(sliced.folders.map((f) => [f.folderUri, f.issues.length]), [['file:///a', 7000], ['file:///c', 7000]]);
  assert.match(sliced.dropped.join('\n'), /^file:\/\/\/b \(line 21, finding 301: line/);
  assert.ok(ticks > 0, 'a timer ran while the findings were checked');
});

test('a results file that is not JSON Lines at all is logged and read as nothing', async () => {
  const file = await tempFile();
  await fsp.writeFile(file, '{"kind":"folder",\nnot json\n');
  const state = new MapState();
  await state.update(STATE_KEY, { version: 2 });
  const logged: string[] = [];
  const s = new ResultsStorage(state, file, () => ({ folders: [], dismissals: {} }), (l) => logged.push(l));
  assert.equal(s.initial().fileToRead, true);
  assert.deepEqual(await s.readFile(), { folders: [] });
  assert.equal(logged.length, 1, logged.join('\n'));
});

test('a window that closed before the state\'s update landed: the results file alone brings back findings, the scan waited for and dismissals', async () => {
  const m = model();
  await m.apply(FOLDER, completed(scanRef('base'), [issue('1', 'a.js', 3), issue('2', 'b.js')]));
  await m.apply(FOLDER, { kind: 'uploaded', scan: scanRef('waiting') });
  m.dismiss([{ folderUri: FOLDER, issue: m.get(FOLDER, '2')! }], 'accepted-risk');
  const file = await tempFile();
  await new ResultsStorage(new MapState(), file, () => ({ ...m.snapshot(), classificationFilter: 'CWE-79' })).write();
  const lost = new MapState(); // the key-value state never got its update
  const again = new ResultsStorage(lost, file, () => ({ folders: [], dismissals: {} }));
  assert.equal(again.initial().fileToRead, true, 'the file is read without the state saying so');
  const { folders, workspace } = await again.readFile();
  const reloaded = model();
  reloaded.load(folders, workspace?.dismissals, { replace: true });
  assert.deepEqual(reloaded.pendingOf(FOLDER).map((p) => [p.scanId, p.waiting]), [['waiting', true]]);
  assert.equal(reloaded.dismissalOf(reloaded.get(FOLDER, '2')!)?.reason, 'accepted-risk');
  assert.equal(workspace?.classificationFilter, 'CWE-79');
});

test('a shutdown while a write is still running writes the newest state at once, and the running write changes nothing after it', async () => {
  const many = Array.from({ length: 20_000 }, (_, i) => issue(String(i), `src/f${i % 400}.js`, 1 + (i % 50)));
  const m = model(Object.fromEntries(many.map((i) => [i.path, 'x\n'.repeat(60)])));
  await m.apply(FOLDER, completed(scanRef('base'), many));
  const file = await tempFile();
  const state = new MapState();
  const storage = new ResultsStorage(state, file, () => m.snapshot());
  // The write of the findings runs (it yields between slices) when the scan's upload ends and the window reloads.
  const running = storage.write();
  await new Promise((r) => setImmediate(r));
  await m.apply(FOLDER, { kind: 'uploaded', scan: scanRef('waiting') });
  storage.flushSync();
  const read = async () => {
    const again = new ResultsStorage(new MapState(), file, () => ({ folders: [], dismissals: {} }));
    const { folders } = await again.readFile();
    const reloaded = model();
    reloaded.load(folders, undefined, { replace: true });
    return reloaded;
  };
  assert.deepEqual((await read()).pendingOf(FOLDER).map((p) => [p.scanId, p.waiting]), [['waiting', true]], 'the scan waited for is in the file at once');
  await running;
  const after = await read();
  assert.deepEqual(after.pendingOf(FOLDER).map((p) => [p.scanId, p.waiting]), [['waiting', true]], 'the older write did not replace it');
  assert.equal(after.issuesIn(FOLDER).length, many.length);
  assert.deepEqual((await fsp.readdir(path.dirname(file))).filter((f) => f.endsWith('.tmp')), [], 'no temporary file is left');
});

test('the file\'s dismissals, the newest, replace an older copy in the state: a finding restored before the reload stays restored', async () => {
  const m = model();
  await m.apply(FOLDER, completed(scanRef('base'), [issue('1', 'a.js', 3)]));
  const located = [{ folderUri: FOLDER, issue: m.get(FOLDER, '1')! }];
  m.dismiss(located, 'wont-fix');
  const state = new MapState();
  const file = await tempFile();
  const storage = new ResultsStorage(state, file, () => m.snapshot());
  await storage.write();
  const older = state.get<{ dismissals: object }>(STATE_KEY);
  m.restore(located);
  await storage.write();
  await state.update(STATE_KEY, older); // the state's last update lost; the file has it
  const again = new ResultsStorage(state, file, () => ({ folders: [], dismissals: {} }));
  const { snapshot } = again.initial();
  const reloaded = model();
  reloaded.load(snapshot.folders, snapshot.dismissals);
  const { folders, workspace } = await again.readFile();
  reloaded.load(folders, workspace?.dismissals, { replace: true });
  assert.equal(reloaded.dismissalOf(reloaded.get(FOLDER, '1')!), undefined, 'restored, as the file says');
});

test('a workspace record that cannot be read leaves the findings readable and says so', () => {
  const records = [
    { kind: 'workspace', dismissals: { x: { reason: 'because', at: 'now' } } },
    { kind: 'folder', folderUri: 'file:///good', scans: [{ scanId: 's', scannedAt: '2026-11-25T10:00:00Z' }] },
  ];
  const { folders, workspace, dropped } = readRecords(records);
  assert.equal(workspace, undefined);
  assert.equal(folders.length, 1);
  assert.match(dropped.join(' '), /dismissals and filter/);
});
