// A folder's results in one line for the views: how many issues from which scan, and what
// happened since (a cancelled or failed scan, one still on the service, warnings). The text
// holds the service's words (a failure's reason): each view makes it inert its own way.
import { capitalize } from '../../core/issues';
import { folderNotes, resultsText } from '../../core/results';
import { folderNameOf, type ResultsStore } from './resultsStore';

export interface FolderSummary {
  folderUri: string;
  name: string;
  /** "6 issues, from the scan of 14:02", "no issues found in the scan of 14:02" (undefined before any scan completed). */
  results?: string;
  /** Sentences about what happened since, each ending with a period. */
  notes: string[];
}

export function folderSummaries(store: ResultsStore, hideFalsePositives: boolean, now = new Date()): FolderSummary[] {
  return store.folderUris().map((folderUri) => {
    const f = store.folder(folderUri)!;
    let count = 0;
    for (const issue of f.issues) if (store.isShown(issue, hideFalsePositives)) count++;
    return { folderUri, name: folderNameOf(folderUri), results: f.scans.length ? resultsText(f, count, now) : undefined, notes: folderNotes(f, now) };
  });
}

/** Sentences for every folder with something to say; the folder is named when there are several. */
export function summaryNotes(summaries: readonly FolderSummary[], withResults: boolean): string[] {
  const named = summaries.length > 1;
  return summaries
    .filter((s) => s.notes.length)
    .map((s) => `${named ? `${s.name}: ` : ''}${withResults && s.results ? `${capitalize(s.results)}. ` : ''}${s.notes.join(' ')}`);
}
