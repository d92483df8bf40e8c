// CI's gate asked of the service as the service's CLI asks it (decisions.md, "The service's
// gate"): check_blocking_rules with CI's slugs (`--block-on`) or without (`--fail`), asked
// again while the service says it is not ready, every page read, the count from
// `stats.blocked_issues` where it is given. A refusal (400) names its rules; waiting past
// the CLI's own wait is an answer too: not known.
import { sleep } from '../async';
import type { BlockingAnswer } from '../api/blockingRules';
import type { CiGate } from '../workspace/ciGate';

export type ServiceGateOutcome =
  | { kind: 'judged'; block: boolean; blocked: number; issues: { id: string; rules: string[]; slugs: string[] }[] }
  | { kind: 'refused'; unknown: string[]; inactive: string[]; nonCi: string[]; message?: string }
  | { kind: 'not-ready'; status: string; waitedMs: number };

export interface GateAsker {
  checkBlockingRules(scanId: string, q: { page?: number; blockOn?: readonly string[]; signal?: AbortSignal }): Promise<BlockingAnswer>;
}

/** The CLI waits up to 15 minutes for the service to judge a scan. */
export const GATE_WAIT_MS = 15 * 60_000;

export interface AskOptions {
  signal?: AbortSignal;
  /** Told each time the service answers that it is not ready yet. */
  onWaiting?: (status: string, waitedMs: number) => void;
  waitMs?: number;
  /** The pause before the n-th ask again (1-based): short at first, then every 10 s. */
  pauseMs?: (n: number) => number;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const PAUSE = (n: number) => Math.min(10_000, 1_000 * n);
/** More pages than this is a service answering without end, not a list. */
const MAX_PAGES = 500;

export async function askServiceGate(client: GateAsker, scanId: string, gate: Extract<CiGate, { kind: 'block-on' | 'fail' }>, o: AskOptions = {}): Promise<ServiceGateOutcome> {
  const now = o.now ?? Date.now;
  const started = now();
  const blockOn = gate.kind === 'block-on' ? gate.slugs : undefined;
  for (let n = 1; ; n++) {
    const first = await client.checkBlockingRules(scanId, { page: 1, ...(blockOn ? { blockOn } : {}), signal: o.signal });
    if (first.kind === 'refused') return first;
    let pending = first.ready ? undefined : first.status;
    const issues = [...first.issues];
    // Every page, each asked as the first was; a page not ready means the whole answer is not.
    for (let page = 2; !pending && page <= Math.min(first.totalPages, MAX_PAGES); page++) {
      const next = await client.checkBlockingRules(scanId, { page, ...(blockOn ? { blockOn } : {}), signal: o.signal });
      if (next.kind === 'refused') return next;
      if (!next.ready) pending = next.status;
      else issues.push(...next.issues);
    }
    if (!pending) {
      const unique = [...new Map(issues.map((i) => [i.id, i])).values()];
      // The count over every page is the service's when it gives one; the findings seen, else.
      // A blocking finding listed while `block` says otherwise is an odd record: it blocks.
      return { kind: 'judged', block: first.block || unique.length > 0, blocked: Math.max(first.blocked ?? 0, unique.length), issues: unique };
    }
    const waited = now() - started;
    const pause = (o.pauseMs ?? PAUSE)(n);
    if (waited + pause > (o.waitMs ?? GATE_WAIT_MS)) return { kind: 'not-ready', status: pending, waitedMs: waited };
    o.onWaiting?.(pending, waited);
    await (o.sleep ?? sleep)(pause, o.signal);
  }
}
