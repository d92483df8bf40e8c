// Fault switches: per route, a FIFO of faults each consumed by the next requests.
export const ROUTE_IDS = [
  'verify', 'roles', 'teamMembers', 'integrationUpdate', 'policies',
  'securityIssues', 'qualityIssues', 'dependencyIssues', 'blockingRules', 'scans', 'scanStatus', 'startScan', 'headTransfer', 'patchChunk',
] as const;
export type RouteId = (typeof ROUTE_IDS)[number];

export type Fault =
  | { kind: 'fail'; status: number; retryAfterSec?: number; body?: unknown }
  | { kind: 'reset'; afterBodyBytes: number }
  | { kind: 'delay'; ms: number }
  | { kind: 'malformed' };

export interface FaultController {
  failNext(route: string, count: number, opts: { status: number; retryAfterSec?: number; body?: unknown }): void;
  resetNext(route: string, count: number, opts?: { afterBodyBytes?: number }): void;
  delayNext(route: string, count: number, ms: number): void;
  malformedNext(route: string, count: number): void;
  clear(): void;
}

interface Armed { fault: Fault; remaining: number }

export class Faults implements FaultController {
  private readonly queues = new Map<RouteId, Armed[]>();

  private arm(route: string, count: number, fault: Fault): void {
    if (!(ROUTE_IDS as readonly string[]).includes(route)) {
      throw new Error(`unknown route id "${route}"; one of ${ROUTE_IDS.join(', ')}`);
    }
    if (!Number.isInteger(count) || count < 1) throw new Error('count must be a positive integer');
    const q = this.queues.get(route as RouteId) ?? [];
    q.push({ fault, remaining: count });
    this.queues.set(route as RouteId, q);
  }

  failNext(route: string, count: number, opts: { status: number; retryAfterSec?: number; body?: unknown }): void {
    if (!Number.isInteger(opts?.status) || opts.status < 400 || opts.status > 599) {
      throw new Error('failNext needs an error status between 400 and 599');
    }
    this.arm(route, count, { kind: 'fail', status: opts.status, retryAfterSec: opts.retryAfterSec, body: opts.body });
  }

  resetNext(route: string, count: number, opts: { afterBodyBytes?: number } = {}): void {
    const k = opts.afterBodyBytes ?? 0;
    if (!Number.isInteger(k) || k < 0) throw new Error('afterBodyBytes must be a non-negative integer');
    this.arm(route, count, { kind: 'reset', afterBodyBytes: k });
  }

  delayNext(route: string, count: number, ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new Error('delay must be a non-negative number of milliseconds');
    this.arm(route, count, { kind: 'delay', ms });
  }

  malformedNext(route: string, count: number): void {
    this.arm(route, count, { kind: 'malformed' });
  }

  clear(): void {
    this.queues.clear();
  }

  /** Takes the fault for this request of `route`, if one is armed. */
  take(route: RouteId): Fault | undefined {
    const q = this.queues.get(route);
    if (!q || q.length === 0) return undefined;
    const head = q[0];
    head.remaining -= 1;
    if (head.remaining <= 0) q.shift();
    return head.fault;
  }
}
