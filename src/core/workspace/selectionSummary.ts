import { formatBytes } from '../text/bytes';
import type { Selection, SkipReason } from './selection';
import { l10n, plural } from '../text/l10n';

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
  get gitignored() { return l10n.t('ignored by git'); },
  get 'ignore-file'() { return l10n.t('matched by a .gitignore'); },
  get 'default-exclude'() { return l10n.t('dependency/build/editor folders'); },
  get 'user-exclude'() { return l10n.t('your exclude globs'); },
  get 'too-large'() { return l10n.t('over the size limit'); },
  get 'outside-folder'() { return l10n.t('outside the folder'); },
  get 'symlink-outside'() { return l10n.t('symlinks leaving the folder'); },
  get 'not-a-file'() { return l10n.t('not regular files'); },
  missing: 'missing',
  get binary() { return l10n.t('binary assets'); },
  unreadable: 'unreadable',
  get credentials() { return l10n.t('credential files'); },
  get 'unsafe-name'() { return l10n.t('names an archive cannot hold'); },
  get 'comma-in-name'() { return l10n.t('names with a comma (partial scans)'); },
  get changed() { return l10n.t('replaced while packaging'); },
};

export function skipReasonLabel(reason: SkipReason): string {
  return REASON_LABELS[reason];
}

/** One line for a status bar, log or notification, e.g. "412 files, 3.1 MB; skipped 12 (...)". */
export function formatSelectionSummary(sel: Selection): string {
  const s = summarizeSelection(sel);
  const head = `${plural(s.files, l10n.t('{0} file'), l10n.t('{0} files'))}, ${formatBytes(s.bytes)}`;
  if (s.skipped === 0) return head;
  const parts = (Object.entries(s.skippedByReason) as [SkipReason, number][])
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${n} ${REASON_LABELS[r]}`);
  return l10n.t('{0}; skipped {1}: {2}', head, s.skipped, parts.join(', '));
}
