// The PATCH that completes an archive: the scan record is created here, with every form
// part, the client header and the archive's file list.
import { randomUUID } from 'node:crypto';
import type { ServiceCore } from '../core';
import type { ScanRecord, TransferState } from '../types';
import { normalizeArchivePath, parseDirty, parseMetadata, parseTargetPolicies, splitList } from '../uploads/validate';
import { archiveKind, listArchive } from './archive';

function defaultProjectName(archiveName: string): string {
  return archiveName.replace(/\.(zip|tar|json|fpr|sarif|xml)$/i, '') || 'project';
}

export async function completeTransfer(
  core: ServiceCore,
  t: TransferState,
  req: { fields: Record<string, string>; source: string; headers: ScanRecord['uploadHeaders'] },
): Promise<ScanRecord> {
  const f = req.fields;
  const archivePath = core.store.transferPath(t.id);
  const kind = archiveKind(t.archiveName);
  let files: string[] = [];
  let error: string | null = null;
  try {
    files = kind === 'report' ? [] : await listArchive(archivePath, kind);
  } catch (e) {
    error = `archive could not be read: ${(e as Error).message}`;
  }
  const projectName = f.project_name?.trim() || defaultProjectName(t.archiveName);
  const partial = (f.partial_scan ?? '') !== '';
  const scan: ScanRecord = {
    id: randomUUID(),
    projectId: core.projectId(t.company, projectName),
    projectName,
    transferId: t.id,
    company: t.company,
    user: t.user,
    archiveName: t.archiveName,
    archivePath,
    archiveSize: t.offset,
    formParts: { ...f },
    uploadHeaders: req.headers,
    clientSource: req.source,
    branch: f.branch ?? null,
    repoUrl: f.repo_url ?? null,
    sha: f.sha ?? null,
    dirty: parseDirty(f.dirty),
    metadata: parseMetadata(f.metadata),
    scanConfigs: splitList(f.scan_configs),
    targetPolicies: parseTargetPolicies(f.target_policies, new Set(core.policiesOf(t.company).map((p) => p.id))),
    partial,
    filesToScan: partial ? splitList(f.files_to_scan).map(normalizeArchivePath) : [],
    files,
    status: error ? 'failed' : 'running',
    error,
    createdAt: new Date().toISOString(),
    completedAt: error ? new Date().toISOString() : null,
    issueCount: 0,
  };
  await core.store.addScan(scan, () => {
    t.status = 'completed';
    t.scanId = scan.id;
  });
  return scan;
}
