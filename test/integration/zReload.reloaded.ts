// After the reload zReload.test.ts asked for: the new window waits again for the scan the
// old one was waiting for, by itself, and shows its findings once the service is done.
import * as assert from 'assert';
import { api, finishRunningScans, serviceIssues, setAnswerMode, waitFor } from './helpers';
import { reloadRequest } from './reload';
import { RELOAD_WHILE_SCANNING, type ReloadWhileScanning } from './reloadWhileScanning';

suite('editor: after a reload while the service was scanning', () => {
  suiteTeardown(async () => {
    await setAnswerMode({ shapes: 'seed', processingMs: null });
    await finishRunningScans();
  });

  test('the new window waits for the scan again and ends with its findings', async function () {
    this.timeout(60_000);
    const asked = reloadRequest<ReloadWhileScanning>(RELOAD_WHILE_SCANNING);
    assert.ok(asked, 'the first run left what to check');
    const a = await api();
    const saved = a.folderState(asked.folderUri)?.pending?.find((p) => p.scanId === asked.scanId);
    assert.strictEqual(saved?.waiting, true, `the scan survived the reload as waited for: ${JSON.stringify(a.folderState(asked.folderUri)?.pending)}`);
    // By itself: the API key survived the reload, and nothing here starts the wait.
    assert.strictEqual(await a.hasStoredToken(), true, 'the API key is kept across a reload');
    // Every text the status bar showed, so a failure says what it showed instead.
    const seen = new Set<string>();
    await waitFor('the status bar to show the service\'s state', () => {
      seen.add(a.statusBar.text);
      return /the service (has queued the scan|is scanning)/.test(a.statusBar.text);
    }, 20_000).catch((err: Error) => { throw new Error(`${err.message}; it showed: ${[...seen].join(' | ')}`); });
    // The service held the scan (and the other folder's) this long; now they end, and the
    // waiting window reads the findings.
    assert.ok((await finishRunningScans()).includes(asked.scanId), 'the scan was still running on the service');
    await waitFor('the scan\'s findings', () => a.folderState(asked.folderUri)?.scans.some((s) => s.scanId === asked.scanId), 30_000);
    const expected = (await serviceIssues(asked.scanId)).map((i) => String(i.id)).sort();
    assert.ok(expected.length >= 5);
    const shown = a.issues().filter((l) => l.folderUri === asked.folderUri).map((l) => l.issue.id).sort();
    assert.deepStrictEqual(shown, expected);
    assert.strictEqual(a.folderState(asked.folderUri)?.pending, undefined);
  });
});
