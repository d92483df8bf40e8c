// CI's gate of a folder, read from its files (ciGate.ts reads the text): the CI
// configuration files that exist, each read only inside the folder (a symlink out of it is
// not followed) and bounded, or the setting codeScanner.ciGate when it names a gate.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { CI_CONFIG_FILES, findCiGate, gateOfFlags, isCiConfigFile, type FoundGate } from './ciGate';
import { readTextInside } from './readInside';

/** A CI configuration file is a few kilobytes; a bigger one is not read. */
const MAX_CI_FILE_BYTES = 1024 * 1024;

/** The repository paths of the CI configuration files the folder has. */
async function ciFilesOf(root: string): Promise<string[]> {
  const workflows = await fsp.readdir(path.join(root, '.github', 'workflows')).catch(() => [] as string[]);
  const named = [...workflows.map((n) => `.github/workflows/${n}`), ...CI_CONFIG_FILES.filter((p) => !p.includes('*'))];
  return named.filter(isCiConfigFile);
}

/**
 * The gate CI puts on the folder's scans: the setting's flags when set (a leading
 * `corgea scan` is allowed), else the first command of its CI files; undefined when neither.
 */
export async function readCiGate(root: string, setting?: string): Promise<FoundGate | undefined> {
  const flags = setting?.trim();
  if (flags) return { ...gateOfFlags(flags.replace(/^corgea(\.exe)?\s+scan\b/, '')), command: flags.slice(0, 300) };
  const files: { path: string; text: string }[] = [];
  for (const p of await ciFilesOf(root)) {
    const text = await readTextInside(root, p, MAX_CI_FILE_BYTES);
    if (text !== undefined) files.push({ path: p, text });
  }
  return findCiGate(files);
}
