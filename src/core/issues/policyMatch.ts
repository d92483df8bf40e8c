// Which of the company's policies a finding violates: an active, unarchived policy that
// lists the finding's CWE, applies to its project (or to every project) and whose glob
// pattern takes its file while none of its excludes does. The policies are the service's
// data: their text is shown as untrusted text, their patterns are matched in bounded time
// (policyGlob.ts), and a pattern that cannot be read matches nothing rather than everything.
import type { Policy } from '../api/schemas';
import type { PolicyViolation, StoredIssue } from './model';
import { compileGlob, type ServiceGlob } from './policyGlob';

/** Guidance text kept per policy; the Policies view shows the whole policy. */
export const MAX_GUIDANCE_CHARS = 1000;

/** "CWE-79", "cwe_79", "79" -> 79; anything else -> undefined. */
export function cweNumber(text: string | undefined): number | undefined {
  const m = /^\s*(?:CWE[-_ ]?)?0*(\d{1,6})\s*$/i.exec(text ?? '');
  return m ? Number(m[1]) : undefined;
}

interface Compiled {
  violation: PolicyViolation;
  cwes: Set<number>;
  projects: Set<string>;
  /** Undefined: every file. */
  include?: ServiceGlob;
  excludes: ServiceGlob[];
}

export class PolicyMatcher {
  private readonly compiled: Compiled[];
  /** Classification id -> CWE number: thousands of findings share a few classifications. */
  private readonly cwes = new Map<string, number | undefined>();

  constructor(policies: readonly Policy[]) {
    this.compiled = policies.flatMap((p) => {
      if (p.active === false || p.archived === true) return [];
      const cwes = new Set((p.cwes ?? []).map(cweNumber).filter((n): n is number => n !== undefined));
      if (!cwes.size) return [];
      const pattern = p.glob_pattern?.trim();
      const include = pattern ? compileGlob(pattern) : undefined;
      // A pattern given but unreadable: the policy cannot be placed, so it matches nothing.
      if (pattern && !include) return [];
      const guidance = p.guidance_text?.trim();
      return [{
        violation: {
          id: p.id, name: p.name, ...(guidance ? { guidance: guidance.length > MAX_GUIDANCE_CHARS ? `${guidance.slice(0, MAX_GUIDANCE_CHARS - 1)}…` : guidance } : {}),
          ...(p.approved === false ? { unapproved: true as const } : {}),
        },
        cwes,
        projects: new Set((p.projects ?? []).map((x) => x.trim()).filter(Boolean)),
        include,
        excludes: (p.excludes ?? []).map((x) => x.trim()).filter(Boolean).map(compileGlob).filter((m): m is ServiceGlob => !!m),
      }];
    });
  }

  get size(): number {
    return this.compiled.length;
  }

  /** The policies `issue` violates; `project` is its folder's project when the finding names none. */
  violations(issue: StoredIssue, project: string | undefined): PolicyViolation[] {
    if (!this.compiled.length) return [];
    let cwe = this.cwes.get(issue.classificationId);
    if (cwe === undefined && !this.cwes.has(issue.classificationId)) this.cwes.set(issue.classificationId, (cwe = cweNumber(issue.classificationId)));
    if (cwe === undefined) return [];
    const inProject = issue.projectName?.trim() || project;
    const out: PolicyViolation[] = [];
    for (const c of this.compiled) {
      if (!c.cwes.has(cwe)) continue;
      if (c.projects.size && !(inProject && c.projects.has(inProject))) continue;
      if (c.include && !c.include.matches(issue.path)) continue;
      if (c.excludes.some((m) => m.matches(issue.path))) continue;
      out.push(c.violation);
    }
    return out;
  }
}
