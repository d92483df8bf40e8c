// Finding of the rule engine -> code quality issue with every field of the spec's table.
import { randomUUID } from 'node:crypto';
import type { Finding } from '../rules/types';
import type { QualityIssue, ScanRecord, SeedUser } from '../types';

/** Same finding in the same scan gets the same key, so a resumed scan does not duplicate it. */
export function findingKey(f: Finding): string {
  return `${f.path}:${f.line}:${f.ruleId}`;
}

export function toIssue(f: Finding, scan: ScanRecord, uploader: SeedUser | undefined, createdAt: string): QualityIssue {
  const fileName = f.path.split('/').pop() ?? f.path;
  const valid = f.triage.status === 'valid';
  return {
    id: randomUUID(),
    classification: { ...f.classification },
    urgency: f.urgency,
    created_at: createdAt,
    status: 'open',
    sla_status: 'on_track',
    location: {
      file: { name: fileName, language: f.language, path: f.path },
      project: { name: scan.projectName, branch: scan.branch ?? '', git_sha: scan.sha ?? '' },
      line_number: f.line,
    },
    auto_triage: { false_positive_detection: { status: f.triage.status, reasoning: f.triage.reasoning } },
    auto_fix_suggestion: f.fix
      ? { id: randomUUID(), status: 'fix_available', patch: { diff: f.fix.diff, explanation: f.fix.explanation } }
      : { id: randomUUID(), status: 'no_fix_available', patch: null },
    // Critical findings go straight to whoever uploaded the code; the rest wait for triage.
    assigned_to: f.urgency === 'critical' && uploader
      ? { id: String(uploader.id), email: uploader.email, name: `${uploader.first_name} ${uploader.last_name}` }
      : null,
    scanner_metadata: {
      rule_id: f.ruleId,
      engine: 'reference-rules',
      engine_version: '1.0.0',
      column: f.column,
      snippet: f.snippet,
      finding_key: findingKey(f),
    },
    reachability: {
      is_reachable: valid && (f.endpointCount > 0 || f.urgency === 'critical' || f.urgency === 'high'),
      endpoint_count: valid ? f.endpointCount : 0,
    },
  };
}
