// Persistent state in the data directory: one JSON state file (written atomically via
// rename), one data file per transfer, and per scan its issues and its archive's file
// list. A service started again on the same directory sees the same transfers, offsets,
// scans and issues. File lists (20,000 paths for a big workspace) live apart from the
// state file, which is rewritten on every chunk and must stay small.
import { existsSync, mkdirSync, readFileSync, readdirSync, truncateSync, statSync, openSync, closeSync } from 'node:fs';
import { rename, writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { LIST_IDS, type ListId, type PersistedState, type ServiceFinding, type ScanRecord, type TransferState } from './types';

const STATE_FILE = 'state.json';

function emptyState(): PersistedState {
  return { version: 1, transfers: {}, scans: {}, projects: {}, nextProjectId: 1001, teams: {}, integrations: {} };
}

let tmpCounter = 0;

/** Writes `text` to `path` so a reader sees either the old or the new content, never half. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${++tmpCounter}.tmp`;
  try {
    await writeFile(tmp, text);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** Serialises writes of one file: each save waits for the previous and writes the latest content. */
class SerialWriter {
  private chain: Promise<void> = Promise.resolve();
  constructor(private readonly path: string) {}
  save(render: () => string): Promise<void> {
    const next = this.chain.then(() => writeAtomic(this.path, render()));
    this.chain = next.catch(() => undefined);
    return next;
  }
  idle(): Promise<void> {
    return this.chain;
  }
}

export class Store {
  readonly state: PersistedState;
  /** Per scan and list (listKey). */
  private readonly issues = new Map<string, ServiceFinding[]>();
  private readonly sortedIssues = new Map<string, readonly ServiceFinding[]>();
  private readonly stateWriter: SerialWriter;
  private readonly issueWriters = new Map<string, SerialWriter>();

  private constructor(readonly dataDir: string, state: PersistedState) {
    this.state = state;
    this.stateWriter = new SerialWriter(join(dataDir, STATE_FILE));
  }

  static open(dataDir: string): Store {
    mkdirSync(join(dataDir, 'transfers'), { recursive: true });
    mkdirSync(join(dataDir, 'issues'), { recursive: true });
    mkdirSync(join(dataDir, 'files'), { recursive: true });
    const statePath = join(dataDir, STATE_FILE);
    let state = emptyState();
    if (existsSync(statePath)) {
      try {
        state = { ...emptyState(), ...(JSON.parse(readFileSync(statePath, 'utf8')) as PersistedState) };
      } catch (e) {
        throw new Error(`state file ${statePath} is unreadable: ${(e as Error).message}`, { cause: e });
      }
    }
    const store = new Store(dataDir, state);
    store.recover();
    return store;
  }

  /** Drops bytes past the committed offset (a chunk cut off by a crash) and stale temp files. */
  private recover(): void {
    for (const t of Object.values(this.state.transfers)) {
      const p = this.transferPath(t.id);
      if (!existsSync(p)) closeSync(openSync(p, 'w'));
      if (statSync(p).size > t.offset) truncateSync(p, t.offset);
    }
    for (const dir of ['transfers', 'issues', 'files', '.']) {
      for (const name of readdirSync(join(this.dataDir, dir))) {
        if (name.endsWith('.tmp')) void rm(join(this.dataDir, dir, name), { force: true });
      }
    }
    for (const [id, scan] of Object.entries(this.state.scans)) {
      const f = this.filesPath(id);
      try {
        scan.files = existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as string[]) : [];
      } catch {
        scan.files = [];
      }
      for (const list of LIST_IDS) {
        const key = listKey(id, list);
        const p = this.issuesPath(key);
        if (!existsSync(p)) continue;
        try {
          this.issues.set(key, JSON.parse(readFileSync(p, 'utf8')) as ServiceFinding[]);
        } catch {
          this.issues.set(key, []);
        }
      }
    }
  }

  /** Own-property lookups: ids come from URLs, so "__proto__" and friends must miss. */
  transfer(id: string): TransferState | undefined {
    return Object.hasOwn(this.state.transfers, id) ? this.state.transfers[id] : undefined;
  }

  scan(id: string): ScanRecord | undefined {
    return Object.hasOwn(this.state.scans, id) ? this.state.scans[id] : undefined;
  }

  transferPath(id: string): string {
    return join(this.dataDir, 'transfers', `${id}.bin`);
  }

  chunkTempPath(id: string, n: number): string {
    return join(this.dataDir, 'transfers', `${id}.chunk-${n}.tmp`);
  }

  private issuesPath(key: string): string {
    return join(this.dataDir, 'issues', `${key}.json`);
  }

  private filesPath(scanId: string): string {
    return join(this.dataDir, 'files', `${scanId}.json`);
  }

  persist(): Promise<void> {
    return this.stateWriter.save(() => {
      const scans = Object.fromEntries(Object.entries(this.state.scans).map(([id, { files: _files, ...rest }]) => [id, rest]));
      return JSON.stringify({ ...this.state, scans });
    });
  }

  /**
   * Records a new scan, its file list first, so the state file never names a scan without
   * one; `link` (marking the transfer completed) runs in the same step as the insertion.
   */
  async addScan(scan: ScanRecord, link: () => void): Promise<void> {
    await writeAtomic(this.filesPath(scan.id), JSON.stringify(scan.files));
    link();
    this.state.scans[scan.id] = scan;
    await this.persist();
  }

  /** The archive's file list, once the scan run has read it. */
  async setFiles(scan: ScanRecord, files: string[]): Promise<void> {
    await writeAtomic(this.filesPath(scan.id), JSON.stringify(files));
    scan.files = files;
  }

  issuesOf<T extends ServiceFinding = ServiceFinding>(scanId: string, list: ListId = 'quality'): T[] {
    return (this.issues.get(listKey(scanId, list)) ?? []) as T[];
  }

  /** How many findings the scan has in all its lists. */
  countOf(scanId: string): number {
    return LIST_IDS.reduce((n, list) => n + this.issuesOf(scanId, list).length, 0);
  }

  /**
   * A list's findings newest first, id as the tie-break (the order the list endpoint pages
   * through), sorted once per change: sorting all of them again for every page made a
   * client's read of 50,000 findings cost this service 6.7 ms of CPU a page, most of a core
   * taken from the client it serves on the same machine.
   */
  issuesNewestFirst(scanId: string, list: ListId = 'quality'): readonly ServiceFinding[] {
    const key = listKey(scanId, list);
    let sorted = this.sortedIssues.get(key);
    if (!sorted) {
      sorted = [...this.issuesOf(scanId, list)].sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)) || (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0));
      this.sortedIssues.set(key, sorted);
    }
    return sorted;
  }

  addIssues(scanId: string, found: ServiceFinding[], list: ListId = 'quality'): Promise<void> {
    const key = listKey(scanId, list);
    const all = this.issues.get(key) ?? [];
    all.push(...found);
    this.sortedIssues.delete(key);
    this.issues.set(key, all);
    let w = this.issueWriters.get(key);
    if (!w) {
      w = new SerialWriter(this.issuesPath(key));
      this.issueWriters.set(key, w);
    }
    return w.save(() => JSON.stringify(this.issues.get(key) ?? []));
  }

  async idle(): Promise<void> {
    await this.stateWriter.idle();
    await Promise.all([...this.issueWriters.values()].map((w) => w.idle()));
  }
}

/** A list's file and map key: the code quality list keeps the scan's own name (as before the lists). */
function listKey(scanId: string, list: ListId): string {
  return list === 'quality' ? scanId : `${scanId}.${list}`;
}
