// The service's state and collaborators, shared by every handler.
import { Directory } from './auth';
import { Faults } from './faults';
import type { ScanRunner } from './scans/runner';
import type { AnswerMode } from './shapes';
import { Store } from './store';
import type { PlannedOutcome, Seed, SeedIntegration, SeedPolicy, SeedRole, SeedTeam, SeedUser } from './types';

export interface CoreOptions {
  dataDir: string;
  scanDurationMs: number;
  /** Largest Upload-Length accepted (413 above it). */
  maxArchiveBytes: number;
  /** Most bytes the scan inflates from one archive (a zip bomb stops there). */
  maxScannedBytes: number;
  /** Most files a scan rules on (the benchmark's background scans); unbounded by default, as the real service. */
  maxScannedFiles?: number;
  /** Path segment `/__admin/<secret>/` that every admin request must carry. */
  adminSecret: string;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  route: string | null;
  status: number;
  /** CORGEA-SOURCE header as sent (null when absent). */
  source: string | null;
  /** How the caller was authenticated; `unverified`: credentials were sent but not checked (a failed or anonymous request). */
  auth: 'api-key' | 'jwt' | 'none' | 'unverified';
  at: string;
}

const clone = <T>(v: T): T => structuredClone(v);

export class ServiceCore {
  readonly dir: Directory;
  readonly store: Store;
  readonly faults = new Faults();
  readonly requestLog: RequestLogEntry[] = [];
  /** How answers are shaped (seed or real shapes; gone = 410 everywhere). Switchable at run time. */
  readonly mode: AnswerMode;
  runner!: ScanRunner;
  /** Scans whose blocking rules were asked for once: the first ask answers `pending` (decisions.md). */
  readonly blockingAsked = new Set<string>();
  /** How the next scans end (admin `POST scan-outcomes`), first armed first taken. */
  readonly plannedOutcomes: PlannedOutcome[] = [];

  constructor(readonly seed: Seed, readonly opts: CoreOptions, mode: Partial<AnswerMode> = {}) {
    this.mode = { shapes: mode.shapes ?? 'seed', gone: mode.gone ?? false, processingMs: mode.processingMs, ...(mode.lists ? { lists: mode.lists } : {}) };
    this.dir = new Directory(seed);
    this.store = Store.open(opts.dataDir);
  }

  logRequest(e: RequestLogEntry): void {
    this.requestLog.push(e);
    if (this.requestLog.length > 5000) this.requestLog.splice(0, 1000);
  }

  usersOf(company: number): SeedUser[] {
    return this.seed.users.filter((u) => u.company === company);
  }

  rolesOf(company: number): SeedRole[] {
    return this.seed.roles.filter((r) => r.company === company);
  }

  policiesOf(company: number): SeedPolicy[] {
    return this.seed.policies.filter((p) => p.company === company);
  }

  /** The team as it is now (seed plus persisted changes), or undefined. */
  team(id: number): SeedTeam | undefined {
    const saved = Object.hasOwn(this.store.state.teams, String(id)) ? this.store.state.teams[String(id)] : undefined;
    if (saved) return clone(saved);
    const t = this.seed.teams.find((x) => x.id === id);
    return t ? clone(t) : undefined;
  }

  saveTeam(t: SeedTeam): Promise<void> {
    this.store.state.teams[String(t.id)] = clone(t);
    return this.store.persist();
  }

  integration(uuid: string): SeedIntegration | undefined {
    const key = uuid.toLowerCase();
    const saved = Object.hasOwn(this.store.state.integrations, key) ? this.store.state.integrations[key] : undefined;
    if (saved) return clone(saved);
    const i = this.seed.integrations.find((x) => x.uuid.toLowerCase() === key);
    return i ? clone(i) : undefined;
  }

  saveIntegration(i: SeedIntegration): Promise<void> {
    this.store.state.integrations[i.uuid.toLowerCase()] = clone(i);
    return this.store.persist();
  }

  /** Stable integer id per (company, project name). */
  projectId(company: number, name: string): number {
    const key = `${company}:${name}`;
    let id = this.store.state.projects[key];
    if (id === undefined) {
      id = this.store.state.nextProjectId++;
      this.store.state.projects[key] = id;
    }
    return id;
  }
}
