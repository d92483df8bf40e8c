// Binary files by their content, whatever their name: git's own test (a NUL byte among the
// first 8,000) marks a compiled class without an extension or a fixture of raw bytes as
// binary. Packaging applies it to the bytes it reads anyway (no extra read in a scan);
// Upload Preview reads the same head of each chosen file so it lists what a scan leaves out.
import { promises as fsp } from 'node:fs';
import type { SelectedFile } from './fileList';
import { absolutePathOf } from './pathsOnDisk';
import type { Selection, SkippedFile } from './selection';

/** How much of a file's start is looked at, as git's buffer_is_binary does. */
export const BINARY_SNIFF_BYTES = 8000;

export function isBinaryContent(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Reads files' heads this many at a time. */
const AT_ONCE = 16;

/** A selection as Upload Preview shows it: files whose content is binary moved to the left-out list. */
export interface ContentChecked { files: SelectedFile[]; totalBytes: number; skipped: SkippedFile[] }

export async function leaveOutBinaryContent(selection: Selection): Promise<ContentChecked> {
  const files = [...selection.files];
  const binary = new Array<boolean>(files.length).fill(false);
  const head = Buffer.allocUnsafe(BINARY_SNIFF_BYTES * AT_ONCE);
  let next = 0;
  await Promise.all(Array.from({ length: AT_ONCE }, async (_, slot) => {
    const buf = head.subarray(slot * BINARY_SNIFF_BYTES, (slot + 1) * BINARY_SNIFF_BYTES);
    for (let i = next++; i < files.length; i = next++) {
      const f = files[i]!;
      if (f.size === 0) continue;
      let handle: fsp.FileHandle | undefined;
      try {
        handle = await fsp.open(absolutePathOf(selection.root, f.target ?? f.path), 'r');
        const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
        binary[i] = isBinaryContent(buf.subarray(0, bytesRead));
      } catch {
        // Unreadable now: packaging says so when it gets there.
      } finally {
        await handle?.close();
      }
    }
  }));
  const kept = files.filter((_, i) => !binary[i]);
  const left = files.filter((_, i) => binary[i]).map((f): SkippedFile => ({ path: f.path, reason: 'binary' }));
  return { files: kept, totalBytes: kept.reduce((n, f) => n + f.size, 0), skipped: [...selection.skipped, ...left] };
}
