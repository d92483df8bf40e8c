// GET /scan/{scan_id}/check_blocking_rules?page=N[&block_on=SLUGS] (decisions.md, "The
// service's gate"): the company's CI blocking rules evaluated on a scan's findings. With
// block_on, exactly the named rules, each of which must exist, be active and apply to CI
// (else 400 naming each); without it, every active rule (the CLI's deprecated --fail). The
// first ask of a scan, and any ask while it runs, answers `pending`.
import { HttpError, parseIntStrict, sendJson } from '../http';
import { realDependency, realIssue } from '../shapes';
import type { DependencyFinding, ListId, QualityIssue, SeedBlockingRule, ServiceFinding } from '../types';
import { LIST_IDS } from '../types';
import type { Ctx } from './context';

const PAGE_SIZE = 20;
const RANK: Record<string, number> = { low: 0, medium: 1, high: 2, critical: 3 };

function matches(rule: SeedBlockingRule, list: ListId, f: ServiceFinding): boolean {
  if (!rule.match.lists.includes(list)) return false;
  if (list === 'dependency') {
    const d = f as DependencyFinding;
    return rule.match.malicious ? d.classification === 'malicious' : true;
  }
  const i = f as QualityIssue;
  if (rule.match.classification && i.classification?.id !== rule.match.classification) return false;
  if (rule.match.urgency_at_least && !((RANK[i.urgency] ?? -1) >= RANK[rule.match.urgency_at_least]!)) return false;
  return true;
}

export async function checkBlockingRules(ctx: Ctx): Promise<void> {
  const scan = ctx.core.store.scan(ctx.params.scan_id);
  if (!scan || scan.company !== ctx.principal.company.id) throw new HttpError(404, `scan ${ctx.params.scan_id} not found`);
  const rules = ctx.core.seed.blocking_rules.filter((r) => r.company === scan.company);
  const q = ctx.url.searchParams;
  const page = Math.max(1, parseIntStrict(q.get('page')) ?? 1);
  let chosen: SeedBlockingRule[];
  const blockOn = q.get('block_on');
  if (blockOn !== null) {
    const slugs = blockOn.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = slugs.filter((s) => !rules.some((r) => r.slug === s));
    const inactive = slugs.filter((s) => rules.some((r) => r.slug === s && !r.active));
    const nonCi = slugs.filter((s) => rules.some((r) => r.slug === s && r.active && r.applies_to !== 'ci'));
    if (!slugs.length || unknown.length || inactive.length || nonCi.length) {
      sendJson(ctx.res, 400, { message: 'block_on names rules that cannot gate CI', unknown_slugs: unknown, inactive_slugs: inactive, non_ci_slugs: nonCi });
      return;
    }
    chosen = rules.filter((r) => slugs.includes(r.slug));
  } else {
    chosen = rules.filter((r) => r.active);
  }
  // Judging a scan takes the service a moment: its first ask, and every ask while it runs, is pending.
  const asked = ctx.core.blockingAsked;
  if (!asked.has(scan.id) || scan.status === 'running') {
    asked.add(scan.id);
    sendJson(ctx.res, 200, { block: false, blocking_issues: [], total_pages: 0, stats: { blocked_issues: 0 }, status: 'pending' });
    return;
  }
  const blocking = LIST_IDS.flatMap((list) => ctx.core.store.issuesNewestFirst(scan.id, list).flatMap((f) => {
    const by = chosen.filter((r) => matches(r, list, f));
    // Named by the id its list sends (real shapes send another).
    const id = ctx.core.mode.shapes === 'real' ? String((list === 'dependency' ? realDependency(f as DependencyFinding) : realIssue(f as QualityIssue)).id) : f.id;
    return by.length ? [{ id, triggered_by_rules: by.map((r) => r.name), triggered_by_slugs: by.map((r) => r.slug) }] : [];
  }));
  const totalPages = Math.ceil(blocking.length / PAGE_SIZE);
  sendJson(ctx.res, 200, {
    block: blocking.length > 0,
    blocking_issues: blocking.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
    total_pages: totalPages,
    stats: { blocked_issues: blocking.length },
    status: 'complete',
  });
}
