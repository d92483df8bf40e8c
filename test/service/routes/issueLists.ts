// A scan's three lists of findings (decisions.md, "Every list the service keeps"):
// GET /scan/{scan_id}/issues (security), /issues/quality (code quality, the spec's route) and
// /issues/sca (dependencies). Newest first, id as tie-break; a page past the end is empty.
import { HttpError, clamp, paginate, parseIntStrict, sendJson } from '../http';
import { realDependency, realIssue } from '../shapes';
import type { DependencyFinding, ListId, QualityIssue, ServiceFinding } from '../types';
import type { Ctx } from './context';

/** The spec bounds the quality list's pages at 50 (default 20); the others as the service's CLI reads them (30). */
const PAGE_SIZES: Record<ListId, { max: number; default: number }> = {
  security: { max: 50, default: 30 },
  quality: { max: 50, default: 20 },
  dependency: { max: 50, default: 30 },
};

export function listIssues(list: ListId) {
  return async (ctx: Ctx): Promise<void> => {
    const scan = ctx.core.store.scan(ctx.params.scan_id);
    // Another company's scan is reported exactly like a missing one.
    if (!scan || scan.company !== ctx.principal.company.id) throw new HttpError(404, `scan ${ctx.params.scan_id} not found`);
    const q = ctx.url.searchParams;
    const needle = (q.get('classification') ?? '').trim().toLowerCase();
    const page = Math.max(1, parseIntStrict(q.get('page')) ?? 1);
    const pageSize = clamp(parseIntStrict(q.get('page_size')) ?? PAGE_SIZES[list].default, 1, PAGE_SIZES[list].max);
    const real = ctx.core.mode.shapes === 'real';
    // Real answers: a scan lists its findings once it is complete (decisions.md, the scan lifecycle).
    const newestFirst = real && scan.status === 'running' ? [] : ctx.core.store.issuesNewestFirst(scan.id, list);
    // The spec's classification filter is the quality list's; the service ignores it elsewhere.
    const issues = needle && list !== 'dependency' ? newestFirst.filter((i) => classifiedAs(i, needle)) : newestFirst;
    const { slice, totalPages } = paginate(issues, page, pageSize);
    const shaped = real ? slice.map((i) => (list === 'dependency' ? realDependency(i as DependencyFinding) : realIssue(i as QualityIssue))) : slice;
    sendJson(ctx.res, 200, { status: 'ok', page, total_pages: totalPages, total_issues: issues.length, issues: shaped });
  };
}

/** Injected issues (admin) may lack a classification or hold odd types. */
function classifiedAs(issue: ServiceFinding, needle: string): boolean {
  const c = (issue as { classification?: { id?: unknown; name?: unknown } | null }).classification;
  return [c?.id, c?.name].some((v) => typeof v === 'string' && v.toLowerCase().includes(needle));
}
