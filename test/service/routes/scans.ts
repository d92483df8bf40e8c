// GET /scans?project=NAME&sha=SHA&page=N&page_size=N (decisions.md, "The service's scans of a
// commit"): the company's scans of a project, newest first, with each scan's git details, so
// a client can find a complete clean scan of a commit to reuse instead of uploading again.
import { HttpError, parseIntStrict, sendJson } from '../http';
import type { ScanRecord } from '../types';
import type { Ctx } from './context';

const MAX_PAGE_SIZE = 100;

function statusWord(scan: ScanRecord): string {
  return scan.status === 'completed' ? 'complete' : scan.status === 'failed' ? 'failed' : 'processing';
}

export async function listScans(ctx: Ctx): Promise<void> {
  const q = ctx.url.searchParams;
  const project = q.get('project');
  if (!project) throw new HttpError(400, 'project is required');
  const sha = q.get('sha');
  const page = parseIntStrict(q.get('page')) ?? 1;
  const size = parseIntStrict(q.get('page_size')) ?? 20;
  if (page < 1 || size < 1 || size > MAX_PAGE_SIZE) throw new HttpError(400, `page must be 1 or more and page_size 1 to ${MAX_PAGE_SIZE}`);
  const scans = Object.values(ctx.core.store.state.scans)
    .filter((s) => s.company === ctx.principal.company.id && s.projectName === project && (!sha || s.sha === sha))
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : -1));
  sendJson(ctx.res, 200, {
    status: 'ok',
    page,
    total_pages: Math.max(1, Math.ceil(scans.length / size)),
    scans: scans.slice((page - 1) * size, page * size).map((s) => ({
      id: s.id,
      project: s.projectName,
      repo: s.repoUrl,
      branch: s.branch,
      status: statusWord(s),
      engine: 'blast',
      created_at: s.createdAt,
      git_sha: s.sha,
      worktree_dirty: s.dirty,
      pull_request_id: null,
      failed_reason: s.status === 'failed' ? s.error : null,
    })),
  });
}
