// Writing an export where the person chose, and only there: never through a symbolic link (a
// repository can commit `code-scanner-findings.sarif` as a link to a file outside it), and
// never to a real path other than the one shown (a folder on the way that is a link). The
// file is written beside its target and renamed over it, so a failure leaves the old one.
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { l10n } from '../text/l10n';

export class UnsafeTargetError extends Error {}

/** Writes `data` to `target` (absolute), refusing a link or a path whose folders resolve elsewhere. */
export async function writeExportFile(target: string, data: string | Buffer): Promise<void> {
  const abs = path.resolve(target);
  const dir = path.dirname(abs);
  let realDir: string;
  try {
    realDir = await fsp.realpath(dir);
  } catch {
    throw new UnsafeTargetError(l10n.t('The folder {0} does not exist.', dir));
  }
  if (path.relative(realDir, dir) !== '') {
    throw new UnsafeTargetError(l10n.t('{0} is reached through a symbolic link (it is really {1}); choose a folder that is not a link.', dir, realDir));
  }
  const st = await fsp.lstat(abs).catch(() => undefined);
  if (st?.isSymbolicLink()) throw new UnsafeTargetError(l10n.t('{0} is a symbolic link; an export never writes through one. Choose another file.', abs));
  if (st && !st.isFile()) throw new UnsafeTargetError(l10n.t('{0} is not a regular file.', abs));
  const temp = path.join(dir, `.${path.basename(abs)}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fsp.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644);
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
  try {
    await fsp.rename(temp, abs);
  } catch (e) {
    await fsp.rm(temp, { force: true });
    throw e;
  }
}
