// Scans apply in the order they were uploaded, told by their upload times: a clock set back
// between two uploads must not make the later one look older (it then changed nothing).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sawUploadTime, uploadTime } from '../../../src/core/scan/uploadTime';
import { FOLDER, completed, issue, model, shown } from '../results/helpers';

const HOUR = 3_600_000;

describe('upload times', () => {
  // First: the times are this process's, and the tests after this one move them years on.
  test('a full scan uploaded after the clock was set back still replaces the findings of the one before', async () => {
    const m = model();
    // The scan kept from before (as stored), uploaded two hours "from now" by the clock of then.
    const before = { scanId: 'before', scannedAt: new Date(Date.now() + 2 * HOUR).toISOString() };
    await m.apply(FOLDER, { kind: 'uploaded', scan: before });
    await m.apply(FOLDER, completed(before, [issue('1', 'a.js', 2), issue('2', 'b.js', 3)]));
    // The next window reads it back, and uploads with the clock as it is now.
    const next = model();
    next.load(m.snapshot().folders);
    const after = { scanId: 'after', scannedAt: uploadTime() };
    await next.apply(FOLDER, { kind: 'uploaded', scan: after });
    await next.apply(FOLDER, completed(after, [issue('3', 'c.js', 4)]));
    assert.deepEqual(shown(next), ['c.js:3'], 'the later upload speaks for the folder');
    assert.deepEqual(next.scansOf(FOLDER).map((s) => s.scanId), ['after']);
  });

  test('each upload time is later than the one before, even when the clock went back', () => {
    const now = Date.parse('2030-01-01T12:00:00Z');
    const first = uploadTime(now);
    const second = uploadTime(now - HOUR);
    const third = uploadTime(now - HOUR + 5);
    assert.ok(second > first && third > second, `${first} < ${second} < ${third}`);
    assert.equal(uploadTime(now + HOUR), new Date(now + HOUR).toISOString(), 'a clock that runs on is taken as it is');
  });

  test('a time read back from storage is a floor; one far in the future (a wrong clock then) is not', () => {
    const now = Date.parse('2031-06-01T08:00:00Z');
    sawUploadTime(new Date(now + 10 * 365 * 24 * HOUR).toISOString(), now);
    assert.equal(uploadTime(now + 2 * HOUR), new Date(now + 2 * HOUR).toISOString());
    sawUploadTime(new Date(now + 3 * HOUR).toISOString(), now);
    assert.ok(uploadTime(now) > new Date(now + 3 * HOUR).toISOString());
    sawUploadTime('not a time', now);
    sawUploadTime(undefined, now);
  });

});
