// `--fail-on` judged as the service's CLI judges it (decisions.md, "How CI gates on the
// service"): any security finding of the scan at or above the threshold, or, with
// `malicious`, any dependency the service classifies malicious. Code quality findings and
// merely vulnerable dependencies never trip it.
import { kindOf, normalizeUrgency, type StoredIssue } from '../issues';
import type { CiGate, Threshold } from '../workspace/ciGate';

const LEVEL: Record<string, Threshold> = { critical: 'CR', high: 'HI', medium: 'ME', low: 'LO' };
const RANK: Record<Threshold, number> = { LO: 0, ME: 1, HI: 2, CR: 3 };

/** The findings that make `--fail-on` fail CI (none: it passes what it was given). */
export function failOnTrips(gate: Extract<CiGate, { kind: 'fail-on' }>, findings: readonly StoredIssue[]): StoredIssue[] {
  return findings.filter((i) => {
    if (gate.malicious && kindOf(i) === 'dependency' && i.dependency?.malicious) return true;
    if (!gate.threshold || kindOf(i) !== 'security') return false;
    // Full words and codes mean the same (decisions.md); an unknown urgency trips nothing, as in the CLI.
    const level = LEVEL[normalizeUrgency(i.urgency)];
    return level !== undefined && RANK[level] >= RANK[gate.threshold];
  });
}
