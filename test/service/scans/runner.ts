// Runs a scan: reads the archive (recording its file list), applies the rule engine to its
// text files and records the issues progressively over scanDurationMs, so a poll during the
// run sees fewer. An archive that cannot be read fails the scan.
import type { ServiceCore } from '../core';
import { scanSource, wantsFile } from '../rules';
import { isManifest, scanManifest, type DependencyMatch } from '../rules/dependencies';
import type { Finding } from '../rules/types';
import type { DependencyFinding, ListId, QualityIssue, ScanRecord, ServiceFinding } from '../types';
import { normalizeArchivePath } from '../uploads/validate';
import { archiveKind, walkArchive } from './archive';
import { dependencyKey, findingKey, toDependencyFinding, toIssue, toSecurityIssue } from './issues';

const MAX_ISSUES = 10000;
const STEPS = 5;

function safeArchivePath(raw: string): string | undefined {
  const p = normalizeArchivePath(raw);
  if (!p || p.split('/').some((s) => s === '..')) return undefined;
  return p;
}

class ArchiveUnreadableError extends Error {}
class PlannedFailure extends Error {}

export class ScanRunner {
  private readonly timers = new Map<NodeJS.Timeout, { wake: () => void; scanId?: string }>();
  private readonly running = new Map<string, Promise<void>>();
  private closed = false;
  /** Scans a test let finish now (see hurry): they sleep no more. */
  private readonly hurried = new Set<string>();

  constructor(private readonly core: ServiceCore) {}

  /** Scans left running by a previous process on the same data directory continue. */
  resumeAll(): void {
    for (const s of Object.values(this.core.store.state.scans)) if (s.status === 'running') this.start(s.id);
  }

  start(scanId: string): void {
    if (this.running.has(scanId) || this.closed) return;
    this.running.set(scanId, this.run(scanId).finally(() => this.running.delete(scanId)));
  }

  /** Resolves after `ms`, or at once when the runner closes (the run then stops) or `scanId` is hurried. */
  private sleep(ms: number, scanId?: string): Promise<void> {
    if (scanId !== undefined && this.hurried.has(scanId)) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => { this.timers.delete(t); resolve(); }, ms);
      this.timers.set(t, { wake: resolve, scanId });
    });
  }

  /**
   * A test's switch: the running scan ends its processing now instead of at its set time, so a
   * test can hold a scan for as long as it needs and then let it finish. False: not running.
   */
  hurry(scanId: string): boolean {
    const scan = this.core.store.scan(scanId);
    if (!scan || scan.status !== 'running' || !this.running.has(scanId)) return false;
    // The status route reads the same time: the scan says "processing" until its findings are in.
    scan.processingMs = Math.max(0, Date.now() - Date.parse(scan.createdAt));
    this.hurried.add(scanId);
    for (const [t, { wake, scanId: of }] of this.timers) {
      if (of !== scanId) continue;
      clearTimeout(t);
      this.timers.delete(t);
      wake();
    }
    return true;
  }

  /** What the rules and the dependency engine report of the archive's files. */
  private async findings(scan: ScanRecord): Promise<{ code: Finding[]; dependencies: DependencyMatch[] }> {
    const only = scan.partial ? new Set(scan.filesToScan) : undefined;
    const out: Finding[] = [];
    const dependencies: DependencyMatch[] = [];
    const files: string[] = [];
    let scanned = 0;
    let inflated = 0;
    let beyond = 0;
    const maxFiles = this.core.opts.maxScannedFiles ?? Number.POSITIVE_INFINITY;
    // Every file of the archive is ruled on, as the real service does; a limit (bytes inflated,
    // or the files a benchmark asks for) is reported as the real service reports scan errors.
    await walkArchive(scan.archivePath, archiveKind(scan.archiveName), (f) => {
      files.push(f.path);
      const p = safeArchivePath(f.path);
      const candidate = !this.closed && !!p && (!only || only.has(p)) && (wantsFile(p, f.size) || (isManifest(p) && f.size <= 1024 * 1024));
      // Sizes are checked by the readers (yauzl validates them), so this bounds what is inflated.
      const want = candidate && scanned < maxFiles && inflated + f.size <= this.core.opts.maxScannedBytes;
      if (want) { scanned++; inflated += f.size; }
      else if (candidate) beyond++;
      return want;
    }, (f, content) => {
      // A service closing stops reading: nothing may be written into its data directory after close().
      if (this.closed) return Promise.reject(new Error('the service is closing'));
      const p = safeArchivePath(f.path);
      if (!content || !p || out.length >= MAX_ISSUES) return undefined;
      if (isManifest(p)) dependencies.push(...scanManifest(p, content.toString('utf8')));
      else out.push(...scanSource(p, content));
      // Let requests in between files: scanning must not stall uploads.
      return new Promise<void>((resolve) => setImmediate(resolve));
    }).catch((e: unknown) => {
      throw new ArchiveUnreadableError(`archive could not be read: ${(e as Error).message}`);
    });
    if (this.closed) return { code: [], dependencies: [] };
    await this.core.store.setFiles(scan, files);
    if (beyond) {
      scan.limitErrors = [{ scan_type: 'blast', level: 'warning', location: null, message: `${beyond} source files were not scanned: the scan reached its limit of ${scanned} files or ${Math.round(this.core.opts.maxScannedBytes / 1024 ** 2)} MB` }];
    }
    return { code: out.slice(0, MAX_ISSUES), dependencies };
  }

  private async run(scanId: string): Promise<void> {
    const { store } = this.core;
    const scan = store.scan(scanId);
    if (!scan) return;
    const durationMs = scan.processingMs ?? this.core.opts.scanDurationMs;
    const uploader = this.core.dir.user(scan.user);
    try {
      const metaKey = (i: ServiceFinding) => String((i as QualityIssue).scanner_metadata?.finding_key);
      const known = new Set([...store.issuesOf(scanId, 'security'), ...store.issuesOf(scanId, 'quality')].map(metaKey));
      const knownDeps = new Set(store.issuesOf<DependencyFinding>(scanId, 'dependency').map((d) => dependencyKey(d.location?.path, d.package?.name, d.cve)));
      const found = await this.findings(scan);
      // Code findings first, then the dependencies, in the same steps: a poll during the run sees fewer.
      const todo: ({ list: ListId; make: (now: string) => ServiceFinding })[] = [
        ...found.code.filter((f) => !known.has(findingKey(f))).map((f) => ({
          list: f.list as ListId,
          make: (now: string) => (f.list === 'security' ? toSecurityIssue(f, scan, uploader, now) : toIssue(f, scan, uploader, now)),
        })),
        ...found.dependencies.filter((m) => !knownDeps.has(dependencyKey(m.path, m.requirement.name, m.advisory.cve))).map((m) => ({ list: 'dependency' as ListId, make: (now: string) => toDependencyFinding(m, now) })),
      ];
      if (scan.planned?.failedReason) {
        // A scan armed to fail runs its time, then fails with that reason and no findings.
        await this.sleep(durationMs, scanId);
        if (this.closed) return;
        throw new PlannedFailure(scan.planned.failedReason);
      }
      const per = Math.max(1, Math.ceil(todo.length / STEPS));
      const steps = Math.max(1, Math.ceil(todo.length / per));
      for (let k = 0; k < steps; k++) {
        await this.sleep(durationMs / steps, scanId);
        if (this.closed) return;
        const now = new Date().toISOString();
        const batch = todo.slice(k * per, (k + 1) * per);
        for (const list of new Set(batch.map((b) => b.list))) {
          await store.addIssues(scanId, batch.filter((b) => b.list === list).map((b) => b.make(now)), list);
        }
        scan.issueCount = store.countOf(scanId);
      }
      scan.status = 'completed';
    } catch (e) {
      if (this.closed) return;
      scan.status = 'failed';
      scan.error = e instanceof ArchiveUnreadableError || e instanceof PlannedFailure ? e.message : `scan failed: ${(e as Error).message}`;
    }
    scan.completedAt = new Date().toISOString();
    scan.issueCount = store.countOf(scanId);
    await store.persist();
  }

  /** Stops every run; resolves once none can write any more. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [t, { wake }] of this.timers) {
      clearTimeout(t);
      wake();
    }
    this.timers.clear();
    await Promise.all([...this.running.values()].map((p) => p.catch(() => undefined)));
  }
}
