// Where a workspace's findings are kept between sessions, apart from the model that holds
// them: the small state in a key-value store (VS Code's workspace Memento), the findings in
// a JSON Lines file beside it (written in slices, replaced atomically). What is read back is
// checked like an answer from the service: the file may have been damaged or edited by
// hand, and one bad record must not break every view, so a folder with a bad record is
// dropped whole (and said why), never half-loaded.
import { STATE_KEYS } from '../persist/stateKeys';
import { z } from 'zod';
import { isInsideFolder } from '../workspace/insideFolder';
import { readJsonLines, writeJsonLines, writeJsonLinesSync } from '../persist';
import type { StoredIssue } from '../issues';
import { findingKey } from '../issues/kinds';
import type { Dismissal, FolderFindings } from './types';
import type { LeftFinding } from './leftFindings';
import { runAtOnce, runInSlices } from '../async';
import { errorMessage } from '../errors';
import { isRecord } from '../text/isRecord';
import { l10n } from '../text/l10n';

/**
 * A finding stored before the lists were told apart is a code quality finding under its
 * service id: it keeps that key, unless the id looks like another list's key (kinds.ts).
 */
function keyedByList<T extends { id: string; kind?: string }>(issue: T): T {
  // In place (the record is the check's own copy); marked, so a later read keeps the new key.
  if (issue.kind === undefined && findingKey('quality', issue.id) !== issue.id) Object.assign(issue, { id: findingKey('quality', issue.id), kind: 'quality' });
  return issue;
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** What VS Code's Memento offers (and a test's plain map). */
export interface KeyValueState {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

export const STATE_KEY = STATE_KEYS.results.key;
/** Findings per line of the results file: small lines, so reading and writing can pause between them. */
const ISSUES_PER_RECORD = 500;

interface Persisted {
  /** 1: findings in the key-value state; 2: findings in the results file, the rest here (and there). */
  version: 1 | 2;
  folders?: FolderFindings[];
  classificationFilter?: string;
  /** Local dismissals, by finding fingerprint (survives rescans, which give findings new ids). */
  dismissals?: Record<string, Dismissal>;
}

export interface Snapshot {
  folders: FolderFindings[];
  dismissals: Record<string, Dismissal>;
  classificationFilter?: string;
}

/**
 * What a results file holds: its folders and, when it has them, the workspace's dismissals
 * and filter. The file is written first and whole, so it is the newest copy: a window that
 * closes may lose the key-value state's last update, never the file's.
 */
export interface FileContents {
  folders: FolderFindings[];
  workspace?: { dismissals: Record<string, Dismissal>; classificationFilter?: string };
}

// ---- what a stored record must look like

/** Built when a results file is first read, not while the extension loads. */
const recordSchemas = once(() => {

  const text = z.string().max(100_000);
  const position = z.object({ line: z.number().int().min(0), character: z.number().int().min(0) });
  const range = z.object({ start: position, end: position });

  const kind = z.enum(['security', 'quality', 'dependency']);
  const StoredIssueSchema = z.looseObject({
    // A list's prefix (kinds.ts) adds to the service's id of at most 500 characters.
    id: z.string().min(1).max(520),
    kind: kind.optional(),
    classificationId: text,
    classificationName: text,
    classificationDescription: text,
    urgency: text,
    status: text,
    path: z.string().min(1).max(4096).refine(isInsideFolder, l10n.t('a path outside the folder')),
    line: z.number().int().min(1),
    falsePositive: z.boolean(),
    triageReasoning: text.optional(),
    fix: z.looseObject({ diff: z.string().max(1_000_000), explanation: text, status: text }).optional(),
    fixStatus: text.optional(),
    range: range.optional(),
    lineText: text.optional(),
    inArchive: z.boolean().optional(),
    stale: z.boolean().optional(),
    createdAt: text.optional(),
    slaStatus: text.optional(),
    triageStatus: text.optional(),
    fixId: text.optional(),
    reachable: z.boolean().optional(),
    endpointCount: z.number().optional(),
    assignee: z.looseObject({ id: text.optional(), email: text.optional(), name: text.optional() }).optional(),
    fileName: text.optional(),
    language: text.optional(),
    projectName: text.optional(),
    branch: text.optional(),
    gitSha: text.optional(),
    scannerMetadata: text.optional(),
    isNew: z.boolean().optional(),
    policies: z.array(z.looseObject({ id: z.number(), name: text, guidance: text.optional() })).max(1000).optional(),
    // A verdict before a push is kept too (pushChecks.ts): its findings' rules and whether the branch brought them.
    blocksCi: z.array(text).max(100).optional(),
    newInBranch: z.boolean().optional(),
    explanation: text.optional(),
    dependency: z.looseObject({
      name: text, version: text.optional(), ecosystem: text.optional(), fixVersion: text.optional(), cve: text.optional(), malicious: z.literal(true).optional(),
    }).optional(),
  }).transform(keyedByList);

  const ScanRefSchema = z.looseObject({
    scanId: z.string().min(1).max(500),
    projectId: z.union([z.string(), z.number()]).optional(),
    scannedAt: z.string().max(100),
    partialFiles: z.array(z.string().max(4096)).optional(),
    archiveSha256: z.string().max(200).optional(),
    warnings: z.array(text).max(100).optional(),
    unreadLists: z.array(z.looseObject({ kind, reason: text })).max(3).optional(),
    absentLists: z.array(kind).max(3).optional(),
  });

  const stopReason = z.enum(['cancelled', 'unreadable', 'unknown', 'still-running']);

  const FolderRecordSchema = z.looseObject({
    kind: z.literal('folder'),
    folderUri: z.string().min(1),
    scans: z.array(ScanRefSchema),
    unreadable: z.number().int().min(0).optional(),
    fileDigests: z.record(z.string(), z.string()).optional(),
    account: z.string().optional(),
    pending: z.array(ScanRefSchema.extend({ waiting: z.boolean(), stopped: stopReason.optional(), detail: text.optional() })).optional(),
    lastAttempt: z.looseObject({
      kind: z.enum(['cancelled', 'failed', 'error', 'unreadable', 'unknown', 'still-running']),
      at: z.string().max(100),
      scanId: z.string().optional(),
      scannedAt: z.string().max(100).optional(),
      detail: text.optional(),
    }).optional(),
    baseline: z.array(z.string().max(100)).optional(),
  });

  const WorkspaceRecordSchema = z.looseObject({
    kind: z.literal('workspace'),
    dismissals: z.record(z.string().max(1000), z.looseObject({ reason: z.enum(['false-positive', 'accepted-risk', 'wont-fix']), at: z.string().max(100) })),
    classificationFilter: z.string().max(1000).optional(),
  });

  const IssuesRecordSchema = z.looseObject({
    kind: z.literal('issues'),
    folderUri: z.string().min(1),
    issues: z.array(z.unknown()),
  });

  const LeftRecordSchema = z.looseObject({
    kind: z.literal('left'),
    folderUri: z.string().min(1),
    left: z.array(z.unknown()),
  });

  const LeftFindingSchema = z.looseObject({
    issue: StoredIssueSchema,
    how: z.enum(['fixed', 'edited', 'deleted']),
    fixBlocks: z.array(z.array(text).max(10_000)).max(1000).optional(),
  });
  return { StoredIssueSchema, FolderRecordSchema, WorkspaceRecordSchema, IssuesRecordSchema, LeftRecordSchema, LeftFindingSchema };
});

/** The fields a stored finding's record is checked for: the schema's own (not the keys a loose object lets through). */
type Named<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] };
export type StoredIssueRecordField = Named<z.input<ReturnType<typeof recordSchemas>['StoredIssueSchema']>>;

type FileRecord =
  | { kind: 'workspace'; dismissals: Record<string, Dismissal>; classificationFilter?: string }
  | ({ kind: 'folder' } & Omit<FolderFindings, 'issues'>)
  | { kind: 'issues'; folderUri: string; issues: StoredIssue[] }
  | { kind: 'left'; folderUri: string; left: LeftFinding[] };

type ReadResult = FileContents & { dropped: string[] };

/** One stored finding checked as the results file's are; undefined when it does not read. */
export function readStoredIssue(raw: unknown): StoredIssue | undefined {
  const r = recordSchemas().StoredIssueSchema.safeParse(raw);
  return r.success ? (r.data as StoredIssue) : undefined;
}

/** The folders a results file holds, each checked whole; `dropped` says which were left out and why. */
export function readRecords(records: readonly unknown[]): ReadResult {
  return runAtOnce(checkRecords(records));
}

/**
 * The same, a slice at a time: fifty thousand findings checked in one go held the editor's
 * extension host for a quarter of a second at start-up. Same records, same result.
 */
export function readRecordsInSlices(records: readonly unknown[], sliceMs = 5): Promise<ReadResult> {
  // The clock costs more than a finding's check: looked at every 32.
  return runInSlices(checkRecords(records), sliceMs, 32);
}

/** Checks records one finding at a time, yielding after each. */
function* checkRecords(records: readonly unknown[]): Generator<void, ReadResult> {
  const { StoredIssueSchema, FolderRecordSchema, WorkspaceRecordSchema, IssuesRecordSchema, LeftRecordSchema, LeftFindingSchema } = recordSchemas();
  const folders = new Map<string, FolderFindings>();
  const bad = new Map<string, string>();
  const dropped: string[] = [];
  let workspace: FileContents['workspace'];
  for (const [line, raw] of records.entries()) {
    yield;
    const kind = (raw as { kind?: unknown } | null)?.kind;
    const folderUri = (raw as { folderUri?: unknown } | null)?.folderUri;
    const where = typeof folderUri === 'string' ? folderUri : undefined;
    if (kind === 'workspace') {
      const r = WorkspaceRecordSchema.safeParse(raw);
      // Unreadable: the key-value state's copy stays in use.
      if (!r.success) dropped.push(l10n.t('line {0}: the dismissals and filter ({1})', line + 1, r.error.issues[0]?.message ?? l10n.t('not readable')));
      else workspace = { dismissals: r.data.dismissals as Record<string, Dismissal>, classificationFilter: r.data.classificationFilter };
      continue;
    }
    if (kind === 'folder') {
      const r = FolderRecordSchema.safeParse(raw);
      if (!r.success) {
        if (where) bad.set(where, `line ${line + 1}: ${r.error.issues[0]?.message ?? 'not a folder record'}`);
        else dropped.push(l10n.t('line {0}: a folder record without its folder', line + 1));
        continue;
      }
      // `gone` (ids only) came before `left`: nothing of those findings is left to bring back.
      const { kind: _kind, gone: _gone, left: _left, ...folder } = r.data as typeof r.data & { gone?: unknown; left?: unknown };
      folders.set(folder.folderUri, { ...(folder as Omit<FolderFindings, 'issues'>), issues: [] });
      continue;
    }
    const left = kind === 'left';
    const r = left ? LeftRecordSchema.safeParse(raw) : IssuesRecordSchema.safeParse(raw);
    if (!r.success) {
      if (where) bad.set(where, `line ${line + 1}: ${left ? 'not a record of findings that left' : 'not a record of findings'}`);
      else dropped.push(`line ${line + 1}: ${left ? l10n.t('findings that left, without their folder') : l10n.t('neither a folder nor its findings')}`);
      continue;
    }
    const target = folders.get(r.data.folderUri);
    if (!target) {
      bad.set(r.data.folderUri, `line ${line + 1}: findings before their folder`);
      continue;
    }
    const items = ((r.data as { left?: unknown[] }).left ?? (r.data as { issues?: unknown[] }).issues ?? []);
    for (const [i, item] of items.entries()) {
      const checked = (left ? LeftFindingSchema : StoredIssueSchema).safeParse(item);
      if (!checked.success) {
        const e = checked.error.issues[0];
        bad.set(r.data.folderUri, `line ${line + 1}, finding ${i + 1}: ${e ? `${e.path.join('.') || 'the record'}: ${e.message}` : 'not a finding'}`);
        break;
      }
      if (left) (target.left ??= []).push(checked.data as LeftFinding);
      else target.issues.push(checked.data as StoredIssue);
      yield;
    }
  }
  for (const [folderUri, why] of bad) {
    folders.delete(folderUri);
    dropped.push(`${folderUri} (${why})`);
  }
  return { folders: [...folders.values()], ...(workspace ? { workspace } : {}), dropped };
}

function* fileRecords(s: Snapshot): Generator<FileRecord> {
  yield { kind: 'workspace', dismissals: s.dismissals, ...(s.classificationFilter !== undefined ? { classificationFilter: s.classificationFilter } : {}) };
  for (const { issues, left = [], ...folder } of s.folders) {
    yield { kind: 'folder', ...folder };
    for (let i = 0; i < issues.length; i += ISSUES_PER_RECORD) {
      yield { kind: 'issues', folderUri: folder.folderUri, issues: issues.slice(i, i + ISSUES_PER_RECORD) };
    }
    for (let i = 0; i < left.length; i += ISSUES_PER_RECORD) {
      yield { kind: 'left', folderUri: folder.folderUri, left: left.slice(i, i + ISSUES_PER_RECORD) };
    }
  }
}

const PERSIST_SOON_MS = 500;
const PERSIST_IDLE_MS = 3000;

/**
 * Reads and writes a workspace's findings. Without a results file (no workspace storage)
 * everything goes into the key-value state. Writes never overlap and the last one wins;
 * `schedule` batches them: `soon` (findings came or went: within half a second) or `idle`
 * (findings moved with typing: once typing has paused, so the whole state is not rewritten
 * while someone types).
 */
export class ResultsStorage {
  private writing: Promise<void> = Promise.resolve();
  /** The first read of the results file: no write may replace the file before it was read. */
  private ready: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private due = 0;
  /** Writes asked for and not yet ended: a shutdown must not trust them to end. */
  private unfinished = 0;
  /** The results file has been read, or there is none to read: a write may replace it. */
  private fileRead = true;
  /** Shut down (flushSync): the state it wrote is the last; a write still running changes nothing. */
  private closed = false;

  constructor(
    private readonly state: KeyValueState,
    private readonly file: string | undefined,
    private readonly snapshot: () => Snapshot,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** What the key-value state holds now: everything when there is no results file (or an older version wrote it), else the small part. */
  initial(): { snapshot: Snapshot; fileToRead: boolean } {
    const saved = this.state.get<Persisted>(STATE_KEY);
    // No state: a new workspace, or a window that closed before the state's update landed (the file's did).
    if (saved?.version !== 1 && saved?.version !== 2) return { snapshot: { folders: [], dismissals: {} }, fileToRead: !!this.file };
    // Version 1 kept findings here; the next write moves them to the results file.
    const inState = saved.version === 1 ? readRecords((saved.folders ?? []).flatMap((f) => [{ ...f, kind: 'folder' }, { kind: 'issues', folderUri: f.folderUri, issues: f.issues }, { kind: 'left', folderUri: f.folderUri, left: f.left ?? [] }])) : undefined;
    for (const d of inState?.dropped ?? []) this.log(l10n.t('Stored findings of {0} could not be read and were dropped; scan again to see them.', d));
    if (saved.version === 1 && this.file && saved.folders?.length) this.schedule('idle');
    return {
      snapshot: { folders: inState?.folders ?? [], dismissals: isRecord(saved.dismissals) ? (saved.dismissals as Record<string, Dismissal>) : {}, classificationFilter: typeof saved.classificationFilter === 'string' ? saved.classificationFilter : undefined },
      fileToRead: !!this.file && saved.version === 2,
    };
  }

  /** What the results file holds (checked); nothing when it cannot be read. Writes wait for this read. */
  readFile(): Promise<FileContents> {
    this.fileRead = false;
    const reading = this.read();
    this.ready = reading;
    const done = () => { this.fileRead = true; };
    reading.then(done, done);
    return reading;
  }

  private async read(): Promise<FileContents> {
    if (!this.file) return { folders: [] };
    let records: unknown[] | undefined;
    try {
      records = await readJsonLines(this.file);
    } catch (e) {
      this.log(l10n.t('Stored findings could not be read ({0}); scan again to see them.', errorMessage(e)));
      return { folders: [] };
    }
    const { dropped, ...contents } = await readRecordsInSlices(records ?? []);
    for (const d of dropped) this.log(l10n.t('Stored findings of {0} could not be read and were dropped; scan again to see them.', d));
    return contents;
  }

  schedule(when: 'soon' | 'idle'): void {
    const now = Date.now();
    const due = now + (when === 'soon' ? PERSIST_SOON_MS : PERSIST_IDLE_MS);
    if (this.timer) {
      // A write of real changes already due soon stays; a pending write after typing moves on.
      if (this.due <= now + PERSIST_SOON_MS || (when === 'soon' && this.due <= due)) return;
      clearTimeout(this.timer);
    }
    this.due = due;
    this.timer = setTimeout(() => { this.timer = undefined; void this.write(); }, due - Date.now());
  }

  /** The small part of the state; findings go with it only when there is no results file. */
  private small(s: Snapshot): Persisted {
    return { version: this.file ? 2 : 1, folders: this.file ? undefined : s.folders, classificationFilter: s.classificationFilter, dismissals: s.dismissals };
  }

  /** Writes the state now. */
  write(): Promise<void> {
    this.unfinished++;
    const run = async () => {
      try {
        await this.ready.catch(() => undefined);
        if (this.closed) return;
        const s = this.snapshot();
        if (this.file) {
          // The findings before the state that points at them: a reload never finds version 2 without its file.
          await writeJsonLines(this.file, fileRecords(s), () => !this.closed).catch((e: unknown) => {
            this.log(l10n.t('Findings could not be stored in {0}: {1}', this.file, errorMessage(e)));
          });
        }
        if (!this.closed) await this.state.update(STATE_KEY, this.small(s));
      } finally {
        this.unfinished--;
      }
    };
    this.writing = this.writing.then(run, run);
    return this.writing;
  }

  /**
   * Shutting down: a write that was due, or that is still running (a reload may end the process
   * before it does), is made now, synchronously: nothing waits for the event loop any more.
   * Not before the results file was read: the state would lack the findings it holds.
   */
  flushSync(): void {
    const due = this.timer !== undefined || this.unfinished > 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!due || !this.fileRead || this.closed) return;
    this.closed = true;
    const s = this.snapshot();
    if (this.file) {
      try {
        writeJsonLinesSync(this.file, fileRecords(s));
      } catch (e) {
        this.log(l10n.t('Findings could not be stored in {0}: {1}', this.file, errorMessage(e)));
      }
    }
    void this.state.update(STATE_KEY, this.small(s));
  }
}

