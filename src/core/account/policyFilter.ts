// The Policies view's filter: what the user chose, how it is sent to GET /policies, how it
// is summarised in the view's description, and how a stored copy is read back safely.
import { ok, fail, type Parsed } from './parsed';
import { l10n } from '../text/l10n';

export interface PolicyFilter {
  /** undefined = active and inactive policies. */
  active?: boolean;
  /** Policy types (the service matches them against source_type, case-insensitive). */
  types?: string[];
  /** Project name; the service also returns company-wide policies. */
  project?: string;
}

export function isFilterEmpty(f: PolicyFilter): boolean {
  return f.active === undefined && !(f.types && f.types.length) && !f.project;
}

/** Query for ServiceClient.listPolicies / listAllPolicies (without page fields). */
export function filterToQuery(f: PolicyFilter): { active?: boolean; policyTypes?: string[]; project?: string } {
  const q: { active?: boolean; policyTypes?: string[]; project?: string } = {};
  if (f.active !== undefined) q.active = f.active;
  if (f.types && f.types.length) q.policyTypes = [...f.types];
  if (f.project) q.project = f.project;
  return q;
}

/** e.g. "active · Web, API · project backend"; empty when nothing is filtered. */
export function describeFilter(f: PolicyFilter): string {
  const parts: string[] = [];
  if (f.active === true) parts.push('active');
  if (f.active === false) parts.push('inactive');
  if (f.types && f.types.length) parts.push(f.types.join(', '));
  if (f.project) parts.push(l10n.t('project {0}', f.project));
  return parts.join(' · ');
}

/** Comma-separated types as typed in an input box; empty clears the type filter. */
export function parsePolicyTypes(input: unknown): Parsed<string[]> {
  let tokens: unknown[];
  if (Array.isArray(input)) tokens = input;
  else if (typeof input === 'string') tokens = input.split(',');
  else return fail(l10n.t('Enter policy types separated by commas, e.g. Web, API.'));
  const types: string[] = [];
  for (const token of tokens) {
    if (typeof token !== 'string') return fail(l10n.t('Policy types must be text.'));
    const t = token.trim();
    if (t === '') continue;
    // The service splits the parameter on commas, so a type cannot contain one.
    if (!types.some((x) => x.toLowerCase() === t.toLowerCase())) types.push(t);
  }
  return ok(types);
}

export function parseProjectName(input: unknown): Parsed<string | undefined> {
  if (input === undefined || input === null) return ok(undefined);
  if (typeof input !== 'string') return fail(l10n.t('The project must be given by its name.'));
  const t = input.trim();
  return ok(t === '' ? undefined : t);
}

/**
 * A filter from untrusted input (workspace state written by an older version, or a
 * command argument). `active: null` means "any".
 */
export function parsePolicyFilter(input: unknown): Parsed<PolicyFilter> {
  if (input === undefined || input === null) return ok({});
  if (typeof input !== 'object' || Array.isArray(input)) return fail(l10n.t('The policy filter must be an object with active, types and project.'));
  const o = input as Record<string, unknown>;
  const f: PolicyFilter = {};
  if (o.active !== undefined && o.active !== null) {
    if (typeof o.active !== 'boolean') return fail(l10n.t('"active" must be true, false or null (any).'));
    f.active = o.active;
  }
  if (o.types !== undefined && o.types !== null) {
    const types = parsePolicyTypes(o.types);
    if (!types.ok) return types;
    if (types.value.length) f.types = types.value;
  }
  const project = parseProjectName(o.project);
  if (!project.ok) return project;
  if (project.value) f.project = project.value;
  return ok(f);
}
