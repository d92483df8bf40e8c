// Finding of the rule engine -> code quality issue with every field of the spec's table.
import { randomUUID } from 'node:crypto';
import type { DependencyMatch } from '../rules/dependencies';
import type { Finding } from '../rules/types';
import type { DependencyFinding, QualityIssue, ScanRecord, SecurityIssue, SeedUser } from '../types';

/** Same finding in the same scan gets the same key, so a resumed scan does not duplicate it. */
export function findingKey(f: Finding): string {
  return `${f.path}:${f.line}:${f.ruleId}`;
}

/** A security finding: the code quality shape, its scan and an explanation (decisions.md). */
export function toSecurityIssue(f: Finding, scan: ScanRecord, uploader: SeedUser | undefined, createdAt: string): SecurityIssue {
  return { ...toIssue(f, scan, uploader, createdAt), scan_id: scan.id, details: { explanation: `${f.classification.description} Found at ${f.path}:${f.line}.` } };
}

/** A package a manifest asks for that an advisory names, as the dependency list answers it. */
export function toDependencyFinding(m: DependencyMatch, createdAt: string): DependencyFinding {
  const a = m.advisory;
  return {
    id: randomUUID(),
    created_at: createdAt,
    description: a.description,
    details: a.details,
    severity: a.severity,
    classification: a.malicious ? 'malicious' : 'vulnerable',
    cve: a.cve ?? null,
    package: { name: m.requirement.name, version: m.requirement.version, ecosystem: a.ecosystem, fix_version: a.fixedIn ?? null },
    location: { path: m.path },
  };
}

/** The same dependency finding in the same scan gets the same key, so a resumed scan does not duplicate it. */
export function dependencyKey(path: string, name: string, cve: string | null | undefined): string {
  return `${path}:${name}:${cve ?? 'malicious'}`;
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
