// A folder's results in one line for the views: how many issues from which scan, and what
// happened since (a cancelled or failed scan, one still on the service, warnings). The text
// holds the service's words (a failure's reason): each view makes it inert its own way.
import * as vscode from 'vscode';
import { capitalize, kindOf, type FindingKind } from '../../core/issues';
import { listWords } from '../../core/text/l10n';
import { folderNotes, resultsText, waitingUploadsText } from '../../core/results';
import type { WaitingUpload } from '../scan/uploadStorage';
import type { ResultsStore } from './resultsStore';
import { folderNameOf } from '../workspaceFiles';

export interface FolderSummary {
  folderUri: string;
  name: string;
  /** "6 issues, from the scan of 14:02", "no issues found in the scan of 14:02" (undefined before any scan completed). */
  results?: string;
  /** Sentences about what happened since, each ending with a period. */
  notes: string[];
}

/** A results folder's place in the workspace (folders no longer open go last). */
function folderRank(folderUri: string): number {
  return vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(folderUri))?.index ?? Number.MAX_SAFE_INTEGER;
}

/** Each results folder in the workspace's order of folders. */
export function folderSummaries(store: ResultsStore, hideFalsePositives: boolean, now = new Date()): FolderSummary[] {
  return store.folderUris().sort((a, b) => folderRank(a) - folderRank(b)).map((folderUri) => {
    const f = store.folder(folderUri)!;
    let count = 0;
    const byKind: Partial<Record<FindingKind, number>> = {};
    for (const issue of f.issues) {
      if (!store.isShown(issue, hideFalsePositives)) continue;
      count++;
      byKind[kindOf(issue)] = (byKind[kindOf(issue)] ?? 0) + 1;
    }
    return { folderUri, name: folderNameOf(folderUri), results: f.scans.length ? resultsText(f, count, now, byKind) : undefined, notes: folderNotes(f, now) };
  });
}

/**
 * Sentences for every folder with something to say: each such folder's results (with
 * `withResults`), then each note once, with the folders it is about when there are several
 * (a network failure of a two-folder scan is one sentence, not two).
 */
export function summaryNotes(summaries: readonly FolderSummary[], withResults: boolean): string[] {
  const named = summaries.length > 1;
  const noted = summaries.filter((s) => s.notes.length);
  const out: string[] = [];
  if (withResults) for (const s of noted) if (s.results) out.push(`${named ? `${s.name}: ` : ''}${capitalize(s.results)}.`);
  const byNote = new Map<string, string[]>();
  for (const s of noted) for (const n of s.notes) byNote.set(n, [...(byNote.get(n) ?? []), s.name]);
  for (const [note, names] of byNote) out.push(`${named ? `${listWords(names)}: ` : ''}${note}`);
  return out;
}

/** Uploads saved to resume, in a sentence naming their folders (undefined: none). */
export function waitingUploadsNote(waiting: readonly WaitingUpload[], now = new Date()): string | undefined {
  return waitingUploadsText(waiting.map((w) => ({ ...w, folder: folderNameOf(w.folderUri) })), now);
}
