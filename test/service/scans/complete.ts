// The PATCH that completes an archive: the scan record is created here, with every form
// part and the client header. The archive itself is read by the scan run, which records its
// file list first: the upload is answered at once, as by a service that queues its scans
// (reading 27,674 entries took ~180 ms, all of it in the client's wait for its scan id).
import { randomUUID } from 'node:crypto';
import type { ServiceCore } from '../core';
import type { PlannedOutcome, ScanRecord, TransferState } from '../types';
import { normalizeArchivePath, parseDirty, parseMetadata, parseTargetPolicies, splitList } from '../uploads/validate';


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
    files: [],
    status: 'running',
    error: null,
    // Only when set for the mode: otherwise the service's own duration, as it is when the scan runs.
    processingMs: core.mode.processingMs,
    planned: takePlanned(core.plannedOutcomes, projectName),
    createdAt: new Date().toISOString(),
    completedAt: null,
    issueCount: 0,
  };
  await core.store.addScan(scan, () => {
    t.status = 'completed';
    t.scanId = scan.id;
  });
  return scan;
}

/** The first planned outcome meant for any scan or for this project's; taken, so it ends one scan. */
function takePlanned(planned: PlannedOutcome[], projectName: string): PlannedOutcome | null {
  const i = planned.findIndex((p) => !p.project || p.project === projectName);
  return i < 0 ? null : planned.splice(i, 1)[0]!;
}
