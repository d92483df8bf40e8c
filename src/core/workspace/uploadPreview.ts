// What a scan would upload, as a tree a person can walk: directories with their file
// counts and sizes, and everything left out grouped by why. Pure, so the editor's view
// only draws it and the unit tests check it without VS Code.
import type { SelectedFile } from './fileList';
import type { SkipReason, SkippedFile } from './selection';
import { skipReasonLabel } from './selectionSummary';
import { compareNames } from '../text/compare';

export interface PreviewFile { name: string; path: string; size: number }

export interface PreviewDir {
  name: string;
  /** Relative to the folder, `/`-separated; '' for the folder itself. */
  path: string;
  dirs: PreviewDir[];
  files: PreviewFile[];
  /** Files and bytes in this directory and below. */
  count: number;
  bytes: number;
}

export interface LeftOutGroup { reason: SkipReason; label: string; items: SkippedFile[] }


/** The selected files as a directory tree, each level sorted (directories first). */
export function previewTree(files: Iterable<SelectedFile>): PreviewDir {
  const root: PreviewDir = { name: '', path: '', dirs: [], files: [], count: 0, bytes: 0 };
  const index = new Map<string, PreviewDir>([['', root]]);
  const dirOf = (p: string): PreviewDir => {
    let d = index.get(p);
    if (d) return d;
    const slash = p.lastIndexOf('/');
    const parent = dirOf(slash < 0 ? '' : p.slice(0, slash));
    d = { name: p.slice(slash + 1), path: p, dirs: [], files: [], count: 0, bytes: 0 };
    parent.dirs.push(d);
    index.set(p, d);
    return d;
  };
  for (const f of files) {
    const slash = f.path.lastIndexOf('/');
    const dir = dirOf(slash < 0 ? '' : f.path.slice(0, slash));
    dir.files.push({ name: f.path.slice(slash + 1), path: f.path, size: f.size });
    for (let p: string | undefined = dir.path; p !== undefined; p = p ? (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '') : undefined) {
      const d = index.get(p)!;
      d.count++;
      d.bytes += f.size;
    }
  }
  for (const d of index.values()) {
    d.dirs.sort((a, b) => compareNames(a.name, b.name));
    d.files.sort((a, b) => compareNames(a.name, b.name));
  }
  return root;
}

/** Left-out files grouped by reason, the biggest group first; a directory left out whole ends in `/`. */
export function leftOutGroups(skipped: readonly SkippedFile[]): LeftOutGroup[] {
  const groups = new Map<SkipReason, SkippedFile[]>();
  for (const s of skipped) groups.set(s.reason, [...(groups.get(s.reason) ?? []), s]);
  return [...groups].map(([reason, items]) => ({ reason, label: skipReasonLabel(reason), items: items.sort((a, b) => compareNames(a.path, b.path)) }))
    .sort((a, b) => b.items.length - a.items.length || a.label.localeCompare(b.label));
}
