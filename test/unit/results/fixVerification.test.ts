// What Apply Fix tells an agent of the check of its fix: off, after the save, follows, or
// the outcome; still waiting is unknown, never a pass.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredIssue } from '../../../src/core/issues';
import { verificationOutcome, verificationPlan } from '../../../src/core/results/fixVerification';

const fixed: StoredIssue = { id: 'r1', path: 'src/session.js', line: 3, classificationId: 'CWE-338', classificationName: 'Weak random', classificationDescription: '', urgency: 'medium', status: 'open', falsePositive: false };
const check = { path: 'src/session.js', fixed };
const AT = '2026-11-29T08:00:00.000Z';

describe('Apply Fix: the check of the fix, for an agent', () => {
  it('waits only for a followed check of a saved file, when asked to', () => {
    assert.equal(verificationPlan({ followed: true, checksOn: true, saved: true, verify: true }), 'wait');
    const plan = (o: Partial<Parameters<typeof verificationPlan>[0]>) => verificationPlan({ followed: true, checksOn: true, saved: true, verify: true, ...o });
    assert.deepEqual((plan({ checksOn: false }) as { data: unknown }).data, { verification: 'off' });
    assert.deepEqual((plan({ followed: false }) as { data: unknown }).data, { verification: 'off' });
    assert.deepEqual((plan({ saved: false }) as { data: unknown }).data, { verification: 'afterSave' });
    assert.deepEqual((plan({ verify: false }) as { data: unknown }).data, { verification: 'follows' });
  });

  it('says each outcome with what the agent needs to go on', () => {
    assert.equal(verificationOutcome(check, { kind: 'verified', at: AT }, [], 180).data.verification, 'verified');
    const again = verificationOutcome(check, { kind: 'notRemoved', at: AT, issueId: 'r2' }, [], 180);
    assert.equal(again.data.reportedAgainAs, 'r2');
    assert.match(String(again.data.outcome), /did not remove the finding/);
    const added = verificationOutcome(check, { kind: 'introduced', at: AT, issueIds: ['e1'] }, [{ id: 'e1' }], 180);
    assert.deepEqual(added.data.newFindings, [{ id: 'e1' }]);
    const unknown = verificationOutcome(check, { kind: 'unknown', at: AT, reason: 'the scan was cancelled' }, [], 180);
    assert.deepEqual([unknown.data.verification, unknown.data.reason], ['unknown', 'the scan was cancelled']);
  });

  it('still checking when the wait ends, or the check dropped: unknown, never verified', () => {
    const late = verificationOutcome(check, { kind: 'verifying' }, [], 180);
    assert.deepEqual(late.data, { verification: 'unknown', reason: 'timeout' });
    assert.match(late.said, /180 seconds/);
    assert.equal(verificationOutcome(check, undefined, [], 180).data.verification, 'unknown');
  });
});
