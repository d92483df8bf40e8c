// CI's gate as the service evaluates it (decisions.md, "The service's gate"): GET
// /scan/{scan_id}/check_blocking_rules with the CI's rule slugs (`--block-on`), or without
// them (`--fail`: every active rule). Not ready (`status` other than complete) is an answer
// to ask again; a 400 names each rule it refused and why.
import { parse } from './decode';
import { BlockOnRefusalSchema, BlockingRulesSchema } from './schemas';
import { checkScanId } from './scanStatus';
import type { Call, RetryNotice, Transport } from './transport';

export type BlockingAnswer =
  | {
    kind: 'answer';
    /** The service has finished judging the scan: only then do `block` and the findings count. */
    ready: boolean;
    /** Its readiness word, as sent (`complete` when it sent none). */
    status: string;
    block: boolean;
    /** This page's blocking findings, each with the rules (names and slugs) it broke. */
    issues: { id: string; rules: string[]; slugs: string[] }[];
    totalPages: number;
    /** How many findings block, over every page; undefined when the service did not say. */
    blocked?: number;
  }
  | { kind: 'refused'; unknown: string[]; inactive: string[]; nonCi: string[]; message?: string };

export async function checkBlockingRules(
  transport: Transport, scanId: string,
  q: { page?: number; blockOn?: readonly string[]; signal?: AbortSignal; onRetry?: (r: RetryNotice) => void; retries?: number } = {},
): Promise<BlockingAnswer> {
  const op = 'checkBlockingRules';
  checkScanId(op, scanId);
  const call: Call = {
    operation: op,
    method: 'GET',
    path: `/scan/${encodeURIComponent(scanId)}/check_blocking_rules`,
    endpoint: 'GET /scan/{scan_id}/check_blocking_rules',
    query: { page: String(q.page ?? 1), block_on: q.blockOn?.length ? q.blockOn.join(',') : undefined },
    signal: q.signal,
    idempotent: true,
    onRetry: q.onRetry,
    retries: q.retries,
    answers: [400],
  };
  return transport.send(call, (a): BlockingAnswer => {
    if (a.status === 400) {
      const r = parse(call, a, BlockOnRefusalSchema);
      return { kind: 'refused', unknown: r.unknown_slugs ?? [], inactive: r.inactive_slugs ?? [], nonCi: r.non_ci_slugs ?? [], ...(r.message ? { message: r.message } : {}) };
    }
    const r = parse(call, a, BlockingRulesSchema);
    const status = r.status?.trim() || 'complete';
    return {
      kind: 'answer',
      ready: status.toLowerCase() === 'complete',
      status,
      block: r.block,
      issues: (r.blocking_issues ?? []).map((i) => ({ id: i.id, rules: i.triggered_by_rules ?? [], slugs: i.triggered_by_slugs ?? [] })),
      totalPages: r.total_pages ?? 1,
      ...(r.stats?.blocked_issues !== undefined ? { blocked: r.stats.blocked_issues } : {}),
    };
  });
}
