// The scan a check before a push judges: the files that would leave the machine as one
// partial scan (staged changes; a branch without CI's gate), or, for a branch with CI's
// gate, the commit as CI will scan it (decisions.md, "The verdict is CI's own where it can
// be"): the service's own complete clean scan of that commit when it has one, else a new
// full clean scan of the commit's tracked files into CI's project.
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { listName, type StoredIssue } from '../../core/issues';
import { oneLine } from '../../core/text/untrusted';
import type { JudgedCommit, UnknownReason } from '../../core/results/pushVerdict';
import { introducedFindings } from '../../core/results/branchNew';
import { failedLists, fetchFindings } from '../../core/scan/awaitScan';
import type { PartialKind } from '../../core/scan/endWords';
import type { ScanFindings } from '../../core/scan/events';
import { errorMessage } from '../../core/errors';
import { refName } from '../../core/workspace/outgoing';
import { checkOutHead } from '../../core/workspace/commitTree';
import { gitBytes } from '../../core/workspace/git';
import { readTextInside } from '../../core/workspace/readInside';
import type { SkipReason } from '../../core/workspace/selection';
import { folderProject } from '../settings';
import type { FeatureCtx } from '../controllers';
import type { ScanOptions, ScanSummary } from '../scan/scanController';
import { l10n, listWords } from '../../core/text/l10n';

/** Text of the service's or the network's, as a clause of a sentence of ours. */
export function clause(text: string): string {
  return oneLine(text, 200).replace(/[.\s]+$/, '');
}

/** Whether an error's kind says the service could not be reached (rather than that it answered). */
export function unreachable(e: unknown): boolean {
  const kind = typeof e === 'object' && e !== null ? (e as { kind?: unknown }).kind : undefined;
  return typeof kind === 'string' && ['network', 'timeout', 'proxy-auth', 'server'].includes(kind);
}

/** The reason a scan that did not complete gives the verdict. */
export function unknownOf(summary: ScanSummary | undefined): { reason: UnknownReason; detail?: string } {
  const e = summary?.error;
  if (!summary) return { reason: 'not-checked', detail: l10n.t('the scan did not start (another scan is running, or sign-in is needed)') };
  if (summary.cancelled) return { reason: 'not-checked', detail: l10n.t('the check was cancelled') };
  if (e && unreachable(e)) return { reason: 'unreachable', detail: l10n.t('the service could not be reached ({0})', e.message.replace(/[.\s]+$/, '')) };
  return { reason: 'scan-failed', detail: l10n.t('the scan did not complete{0}', e ? ` (${e.message.replace(/[.\s]+$/, '')})` : '') };
}

/** A completed scan of what the check judges. */
export interface Scanned {
  scanId: string;
  /** Its findings, read whole where `incomplete` says nothing. */
  found: StoredIssue[];
  /** How many files it covered (0 when the service's own scan was used). */
  files: number;
  /** What the check did not see, in words. */
  incomplete: string[];
  /** Files of what was judged the scan left out. */
  leftOut: { path: string; reason: SkipReason }[];
  /** A file's text as it was scanned. */
  checkedText(path: string): Promise<string | undefined>;
  commit?: JudgedCommit;
  /** The project the commit was judged in. */
  project?: string;
}

export type ScanAttempt = { kind: 'scanned'; scanned: Scanned } | { kind: 'unknown'; reason: UnknownReason; detail?: string };

type Ctx = Pick<FeatureCtx, 'scans' | 'session' | 'log'>;

interface ScanAsked { title: string; partialOf: PartialKind; quiet?: boolean; options?: ScanOptions; projectName?: string }

/** What a scan's findings say of what the check did not see: a list not read, a problem reported. */
function unseen(f: ScanFindings): string[] {
  const out: string[] = [];
  const unread = f.scan.unreadLists ?? [];
  if (unread.length) out.push(l10n.t('the {0} could not be read ({1})', listWords(unread.map((l) => listName(l.kind))), clause(unread[0]!.reason)));
  if (f.scan.warnings?.length) out.push(l10n.t('the service reported a problem with the scan, so its results may be incomplete ({0})', clause(f.scan.warnings[0]!)));
  return out;
}

/** One scan of the files under `root`, through the scan pipeline; its findings never go into the folder's. */
export async function scanFiles(ctx: Ctx, folder: vscode.WorkspaceFolder, root: string, paths: string[], asked: ScanAsked & { commit?: string }): Promise<ScanAttempt & { summary?: ScanSummary }> {
  let got: { f: ScanFindings; found: StoredIssue[] } | undefined;
  const summary = await ctx.scans.scanContent(folder, {
    root, paths, title: asked.title, partialOf: asked.partialOf, quiet: asked.quiet, options: asked.options,
    ...(asked.projectName ? { projectName: asked.projectName } : {}), ...(asked.commit ? { commit: asked.commit } : {}),
    // Their files were uploaded (as they are under `root`): their fixes may be offered.
    onFindings: (f) => { got = { f, found: f.issues.map((i) => ({ ...i, inArchive: !!f.archived?.has(i.path) })) }; },
  });
  if (!got || summary?.error) return { kind: 'unknown', ...unknownOf(summary) };
  return {
    kind: 'scanned',
    summary,
    scanned: {
      scanId: got.f.scan.scanId,
      found: got.found,
      files: got.f.scan.partialFiles?.length ?? got.f.archived?.size ?? paths.length,
      incomplete: unseen(got.f),
      leftOut: summary?.folders.find((x) => x.scanId)?.leftOut ?? [],
      checkedText: (p) => readTextInside(root, p),
    },
  };
}

/**
 * What CI leaves out of a commit's scan too: files that are not code to scan (binary, the
 * dependency and build folders the service's CLI leaves out, what is not a regular file).
 */
const NOT_CODE: ReadonlySet<SkipReason> = new Set(['binary', 'default-exclude', 'gitignored', 'ignore-file', 'not-a-file', 'symlink-outside']);

/** HEAD judged whole, as CI scans it: the service's own clean scan of it, else a new one. */
export async function scanCommit(ctx: Ctx, folder: vscode.WorkspaceFolder, workRoot: string, asked: ScanAsked): Promise<ScanAttempt> {
  const client = await ctx.session.getClient({ ask: false });
  if (!client) return { kind: 'unknown', reason: 'signed-out' };
  const project = asked.projectName ?? (await folderProject(folder)).name;
  const sha = (await gitBytes(folder.uri.fsPath, ['rev-parse', 'HEAD'])).toString('utf8').trim();
  const reuse = await client.findReusableScan(project, sha).catch((e: unknown) => {
    ctx.log.warn(`${folder.name}: the service's scans of commit ${sha.slice(0, 7)} could not be listed (${errorMessage(e)}); the commit is scanned anew.`);
    return undefined;
  });
  if (reuse && 'scanId' in reuse) {
    ctx.log.info(`${folder.name}: project ${project} has a complete clean scan of commit ${sha.slice(0, 7)} (${reuse.scanId}); it is judged without a new upload.`);
    const read = await fetchFindings({ client, log: (l) => ctx.log.warn(l) }, reuse.scanId);
    const unread = failedLists(read);
    return {
      kind: 'scanned',
      scanned: {
        scanId: reuse.scanId,
        // The commit's files: their fixes apply where the file still reads as it did.
        found: read.issues.map((i) => ({ ...i, inArchive: true })),
        files: 0,
        incomplete: unread.length ? [l10n.t('the {0} could not be read ({1})', listWords(unread.map((l) => listName(l.kind))), clause(unread[0]!.reason))] : [],
        leftOut: [],
        checkedText: (p) => gitBytes(folder.uri.fsPath, ['show', '--no-textconv', `${sha}:./${p}`]).then((b) => b.toString('utf8'), () => undefined),
        commit: { sha, reused: true },
        project,
      },
    };
  }
  if (reuse) ctx.log.info(`${folder.name}: no reusable scan of commit ${sha.slice(0, 7)} in project ${project} (${reuse.none}); the commit's tracked files are scanned.`);
  const tree = await checkOutHead(folder.uri.fsPath, path.join(workRoot, 'commit'));
  const r = await scanFiles(ctx, folder, tree.root, tree.files, { ...asked, projectName: project, commit: tree.sha });
  if (r.kind !== 'scanned') return r;
  return { kind: 'scanned', scanned: { ...r.scanned, leftOut: r.scanned.leftOut.filter((l) => !NOT_CODE.has(l.reason)), commit: { sha: tree.sha, reused: false }, project } };
}

/**
 * Which blocking findings the branch introduces: against the reusable scan of the base
 * commit (the merge base with what the branch is compared with) in the same project.
 * Without such a scan, or one not read whole, it is unknown, and why.
 */
export async function introducedByBranch(
  ctx: Ctx, folder: vscode.WorkspaceFolder, scanned: Pick<Scanned, 'project' | 'checkedText'>, against: string | undefined, blocking: readonly StoredIssue[],
): Promise<{ introduced: Set<string> } | { unknown: string }> {
  if (!against || !scanned.project) return { unknown: l10n.t('the branch has no upstream or default branch to compare with') };
  try {
    const client = await ctx.session.getClient({ ask: false });
    if (!client) return { unknown: l10n.t('you are not signed in') };
    const base = (await gitBytes(folder.uri.fsPath, ['merge-base', '--end-of-options', refName(against), 'HEAD'])).toString('utf8').trim();
    const reuse = await client.findReusableScan(scanned.project, base);
    if (!('scanId' in reuse)) return { unknown: l10n.t('the service has no complete clean scan of the base commit {0} in project {1}', base.slice(0, 7), scanned.project) };
    const read = await fetchFindings({ client, log: (l) => ctx.log.warn(l) }, reuse.scanId);
    if (failedLists(read).length) return { unknown: l10n.t('the findings of the base commit\'s scan could not all be read') };
    const baseText = (p: string) => gitBytes(folder.uri.fsPath, ['show', '--no-textconv', `${base}:./${p}`]).then((b) => b.toString('utf8'), () => undefined);
    return { introduced: await introducedFindings(blocking, scanned.checkedText, read.issues, baseText) };
  } catch (e) {
    return { unknown: clause(errorMessage(e)) };
  }
}
