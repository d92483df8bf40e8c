// --fail-on against the CLI's own cases: at or above the threshold, security findings only;
// malicious dependencies with `malicious`; an OR of the tokens.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toStoredDependency, toStoredIssue } from '../../../src/core/issues';
import { failOnTrips } from '../../../src/core/results/failOn';
import { gateOfFlags } from '../../../src/core/workspace/ciGate';

const sec = (urgency: string) => toStoredIssue({ id: urgency, location: { file: { path: 'a.js' } }, urgency }, 'security')!;
const quality = (urgency: string) => toStoredIssue({ id: `q-${urgency}`, location: { file: { path: 'a.js' } }, urgency }, 'quality')!;
const dep = (classification: string, severity = 'critical') => toStoredDependency({ id: classification, location: { path: 'package.json' }, classification, severity, package: { name: 'x' } })!;

function trips(flags: string, findings: ReturnType<typeof sec>[]): string[] {
  const { gate } = gateOfFlags(flags);
  assert.equal(gate.kind, 'fail-on', flags);
  return failOnTrips(gate as Extract<typeof gate, { kind: 'fail-on' }>, findings).map((i) => i.id);
}

test('at or above: --fail-on ME trips on ME, HI and CR, not on LO', () => {
  assert.deepEqual(trips('--fail-on ME', [sec('LO'), sec('ME'), sec('high'), sec('CR')]), ['security:ME', 'security:high', 'security:CR']);
  assert.deepEqual(trips('--fail-on HI', [sec('medium')]), [], 'a medium does not trip HI');
  assert.deepEqual(trips('--fail-on CR', [sec('HI')]), []);
  assert.deepEqual(trips('--fail-on LO', [sec('low')]), ['security:low']);
});

test('only security findings count for a level; malicious dependencies only with malicious', () => {
  assert.deepEqual(trips('--fail-on LO', [quality('critical'), dep('vulnerable'), dep('malicious')]), [], 'quality and dependencies never trip a level');
  assert.deepEqual(trips('--fail-on malicious', [sec('critical'), dep('vulnerable'), dep('malicious', 'low')]), ['dependency:malicious']);
  assert.deepEqual(trips('--fail-on HI,malicious', [sec('ME'), dep('malicious')]), ['dependency:malicious'], 'any token tripping fails');
  assert.deepEqual(trips('--fail-on HI', [sec('blocker')]), [], 'an urgency the CLI does not know trips nothing');
});
