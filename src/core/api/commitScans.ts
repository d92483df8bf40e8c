// The service's scans of a commit (decisions.md, "The service's scans of a commit"): GET
// /scans?project&sha, newest first. A backend may ignore `sha`, so every record's own
// `git_sha` is checked; a scan is reusable when complete, of the commit, not of a dirty
// worktree, and its state shows no `scan_errors` above `info`.
import { parse } from './decode';
import { ServiceError } from './errors';
import { ProjectScansSchema } from './schemas';
import { readScanStatus } from './scanStatus';
import type { Call, Transport } from './transport';

/** The newest scans are the ones worth a look; a commit scanned more often than this is still found among them. */
const PAGE_SIZE = 20;
/** Candidates confirmed one by one, newest first. */
const MAX_CONFIRMED = 3;

export interface CommitScan { id: string; status: string; sha?: string; dirty?: boolean; branch?: string; createdAt?: string }

export async function listCommitScans(transport: Transport, project: string, sha: string, signal?: AbortSignal): Promise<CommitScan[]> {
  const call: Call = {
    operation: 'listScans',
    method: 'GET',
    path: '/scans',
    endpoint: 'GET /scans',
    query: { project, sha, page: '1', page_size: String(PAGE_SIZE) },
    signal,
    idempotent: true,
  };
  return transport.send(call, (a) => (parse(call, a, ProjectScansSchema).scans ?? []).map((s) => ({
    id: s.id,
    status: s.status.trim().toLowerCase(),
    ...(s.git_sha ? { sha: s.git_sha.trim().toLowerCase() } : {}),
    ...(s.worktree_dirty !== undefined ? { dirty: s.worktree_dirty } : {}),
    ...(s.branch ? { branch: s.branch } : {}),
    ...(s.created_at ? { createdAt: s.created_at } : {}),
  })));
}

/** Why no scan is reused: none complete and clean, its state not shown, its scans had problems, no such route. */
export type NoReusableScan = 'none-found' | 'no-state' | 'problems' | 'no-route';

/**
 * The newest complete clean scan of the commit in the project, confirmed by its state; or
 * why none is used. A service without these routes (404) has none to offer.
 */
export async function findReusableScan(transport: Transport, project: string, sha: string, signal?: AbortSignal): Promise<{ scanId: string } | { none: NoReusableScan }> {
  const want = sha.trim().toLowerCase();
  let scans: CommitScan[];
  try {
    scans = await listCommitScans(transport, project, want, signal);
  } catch (e) {
    if (e instanceof ServiceError && e.kind === 'not-found') return { none: 'no-route' };
    throw e;
  }
  const candidates = scans
    .filter((s) => s.status === 'complete' && s.sha === want && s.dirty !== true);
  if (!candidates.length) return { none: 'none-found' };
  for (const c of candidates.slice(0, MAX_CONFIRMED)) {
    const state = await readScanStatus(transport, c.id, { signal });
    if (!state) return { none: 'no-state' };
    if (state.status === 'complete' && !state.scanErrors.some((e) => e.level !== 'info')) return { scanId: c.id };
  }
  return { none: 'problems' };
}
