import { createHash } from 'node:crypto';
import { promises as fsp, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ServiceClient } from '../../../src/core/api';
import { buildZip, type BuiltArchive } from '../../../src/core/archive/zip';
import { selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import type { ReferenceService } from '../../service';
import { incompressible } from '../workspace/helpers';

export const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** A workspace whose zip is a few hundred KB (random data is stored, so it stays big): several 64 KiB chunks. */
export async function makeArchive(extraFiles: Record<string, string | Buffer> = {}): Promise<{ root: string; archive: BuiltArchive; cleanup: () => Promise<void> }> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'upload-ws-'));
  const files: Record<string, string | Buffer> = {
    'src/main.ts': 'export const answer = 42;\n'.repeat(200),
    'src/util.py': 'def f(x):\n    return x * 2\n'.repeat(100),
    'data/blob.dat': incompressible(300 * 1024),
    ...extraFiles,
  };
  for (const [rel, body] of Object.entries(files)) {
    await fsp.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fsp.writeFile(path.join(root, rel), body);
  }
  const archive = await buildZip(await selectWorkspaceFiles(root));
  return {
    root,
    archive,
    cleanup: async () => {
      await archive.dispose();
      await fsp.rm(root, { recursive: true, force: true });
    },
  };
}

/** A client of the service with its demo token (at another address, a proxy's, when given). */
export function demoClient(service: ReferenceService, baseUrl = service.baseUrl): ServiceClient {
  return new ServiceClient({ baseUrl, token: service.demoToken, timeoutMs: 10_000 });
}

/** The scan the service recorded for `scanId`, with the bytes it stored. */
export function storedScan(service: ReferenceService, scanId: string) {
  const scan = service.scans().find((s) => s.id === scanId);
  if (!scan) throw new Error(`the service has no scan ${scanId}`);
  return { scan, sha256: sha256(readFileSync(scan.archivePath)) };
}

export const SMALL_CHUNK = 64 * 1024;
