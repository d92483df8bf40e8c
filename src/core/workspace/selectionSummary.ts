import { formatBytes } from '../text/bytes';
import { plural } from '../text/plural';
import type { Selection, SkipReason } from './selection';

export interface SelectionSummary {
  files: number;
  bytes: number;
  skipped: number;
  skippedByReason: Partial<Record<SkipReason, number>>;
}

/** Whether git listed untracked files in a whole folder's selection; undefined when it was not asked (outside git, a partial selection). */
export function foundGitUntracked(sel: Selection): boolean | undefined {
  return sel.gitUntracked === undefined ? undefined : sel.gitUntracked > 0;
}

export function summarizeSelection(sel: Selection): SelectionSummary {
  const skippedByReason: Partial<Record<SkipReason, number>> = {};
  for (const s of sel.skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
  return { files: sel.files.length, bytes: sel.totalBytes, skipped: sel.skipped.length, skippedByReason };
}

const REASON_LABELS: Record<SkipReason, string> = {
  gitignored: 'ignored by git',
  'ignore-file': 'matched by a .gitignore',
  'default-exclude': 'dependency/build/editor folders',
  'user-exclude': 'your exclude globs',
  'too-large': 'over the size limit',
  'outside-folder': 'outside the folder',
  'symlink-outside': 'symlinks leaving the folder',
  'not-a-file': 'not regular files',
  missing: 'missing',
  binary: 'binary assets',
  unreadable: 'unreadable',
  credentials: 'credential files',
  'unsafe-name': 'names an archive cannot hold',
  'comma-in-name': 'names with a comma (partial scans)',
  changed: 'replaced while packaging',
};

export function skipReasonLabel(reason: SkipReason): string {
  return REASON_LABELS[reason];
}

/** One line for a status bar, log or notification, e.g. "412 files, 3.1 MB; skipped 12 (...)". */
export function formatSelectionSummary(sel: Selection): string {
  const s = summarizeSelection(sel);
  const head = `${plural(s.files, 'file')}, ${formatBytes(s.bytes)}`;
  if (s.skipped === 0) return head;
  const parts = (Object.entries(s.skippedByReason) as [SkipReason, number][])
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${n} ${REASON_LABELS[r]}`);
  return `${head}; skipped ${s.skipped}: ${parts.join(', ')}`;
}
