// GET /scan/{scan_id}/issues/quality: findings of one scan, newest first, id as tie-break.
import { HttpError, clamp, paginate, parseIntStrict, sendJson } from '../http';
import { realIssue } from '../shapes';
import type { Ctx } from './context';

export async function listQualityIssues(ctx: Ctx): Promise<void> {
  const scan = ctx.core.store.scan(ctx.params.scan_id);
  // Another company's scan is reported exactly like a missing one.
  if (!scan || scan.company !== ctx.principal.company.id) throw new HttpError(404, `scan ${ctx.params.scan_id} not found`);
  const q = ctx.url.searchParams;
  const needle = (q.get('classification') ?? '').trim().toLowerCase();
  const page = Math.max(1, parseIntStrict(q.get('page')) ?? 1);
  const pageSize = clamp(parseIntStrict(q.get('page_size')) ?? 20, 1, 50);
  // Real answers: a scan lists its findings once it is complete (decisions.md, the scan lifecycle).
  const newestFirst = ctx.core.mode.shapes === 'real' && scan.status === 'running' ? [] : ctx.core.store.issuesNewestFirst(scan.id);
  const issues = needle ? newestFirst.filter((i) => matches(i.classification?.id, needle) || matches(i.classification?.name, needle)) : newestFirst;
  const { slice, totalPages } = paginate(issues, page, pageSize);
  const shaped = ctx.core.mode.shapes === 'real' ? slice.map(realIssue) : slice;
  sendJson(ctx.res, 200, { status: 'ok', page, total_pages: totalPages, total_issues: issues.length, issues: shaped });
}

/** Injected issues (admin) may lack a classification or hold odd types. */
function matches(v: unknown, needle: string): boolean {
  return typeof v === 'string' && v.toLowerCase().includes(needle);
}
