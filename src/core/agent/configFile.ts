// An agent's configuration file, read and edited in place: it is the person's (and the
// agent's, which may write to it at any time), so it is read again at the moment of writing,
// a link is followed to the file it names, and a file that cannot be read is never replaced.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';

/** The file's text; undefined when there is none; a read error otherwise. */
export async function readIfThere(file: string): Promise<string | undefined> {
  return fsp.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
}

/**
 * Applies `edit` to the file as it is now and writes it beside and renames over, keeping its
 * mode (0600 for a new one: it is the person's configuration). Read again here, not when the
 * question was asked: what the agent wrote to it meanwhile is kept. A link is edited where
 * it points (the link stays); a file that cannot be read is not written.
 */
export async function editConfig(file: string, edit: (text: string | undefined) => string): Promise<void> {
  const target = await fsp.realpath(file).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? file : Promise.reject(e)));
  const next = edit(await readIfThere(target));
  await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  const mode = (await fsp.stat(target).catch(() => undefined))?.mode ?? 0o600;
  const temp = `${target}.code-scanner-${process.pid}.tmp`;
  await fsp.writeFile(temp, next, { mode: mode & 0o777, flag: 'wx' });
  await fsp.rename(temp, target).catch(async (e: unknown) => {
    await fsp.rm(temp, { force: true });
    throw e;
  });
}
