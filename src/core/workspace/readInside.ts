// Reads a file a finding points at. The path comes from the service, so the file must
// really be inside the folder (symlinks resolved), a regular file, and of a sane size.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { isInsideFolder } from './insideFolder';
import { openRegularFile } from './safeOpen';

/** Findings in bigger files are not placed (the editor would not show such a file well either). */
export const MAX_FINDING_FILE_BYTES = 50 * 1024 * 1024;

export function isInsideReal(realRoot: string, real: string): boolean {
  const rel = path.relative(realRoot, real);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel);
}

/** The file's text, or undefined when it is missing, outside the folder, not a file or too big. */
export async function readTextInside(folderPath: string, relPath: string, maxBytes = MAX_FINDING_FILE_BYTES): Promise<string | undefined> {
  if (!isInsideFolder(relPath)) return undefined;
  let real: string;
  try {
    const realRoot = await fsp.realpath(folderPath);
    real = await fsp.realpath(path.join(folderPath, ...relPath.split('/')));
    if (!isInsideReal(realRoot, real)) return undefined;
  } catch {
    return undefined;
  }
  const opened = await openRegularFile(real);
  if (typeof opened === 'string') return undefined;
  try {
    if (opened.stats.size > maxBytes) return undefined;
    const buf = await opened.handle.readFile();
    return new TextDecoder().decode(buf);
  } catch {
    return undefined;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}
