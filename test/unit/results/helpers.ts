// Shared by the findings-model tests: findings, scans and a folder of files held in memory.
import type { StoredIssue } from '../../../src/core/issues';
import { FindingsModel } from '../../../src/core/results';
import type { ScanEvent, ScanRef } from '../../../src/core/scan/events';

export const FOLDER = 'file:///work/app';

/** Every file of the folder: ten lines of text each. */
export const FILES = ['a.js', 'b.js', 'c.js', 'd.js'];

export function fileText(path: string): string {
  return Array.from({ length: 10 }, (_, i) => `// ${path} line ${i + 1}`).join('\n') + '\n';
}

export function issue(id: string, path: string, line = 1): StoredIssue {
  return {
    id, path, line, classificationId: 'CWE-95', classificationName: 'Eval', classificationDescription: '',
    urgency: 'high', status: 'open', falsePositive: false,
  };
}

export function model(files: Record<string, string | undefined> = Object.fromEntries(FILES.map((f) => [f, fileText(f)]))): FindingsModel {
  return new FindingsModel({ readText: async (_folder, p) => files[p] });
}

let clock = Date.parse('2026-11-25T10:00:00Z');
/** A scan uploaded now (each a second after the last); `files` makes it partial. */
export function scanRef(id: string, files?: string[]): ScanRef {
  clock += 1000;
  return { scanId: id, scannedAt: new Date(clock).toISOString(), ...(files ? { partialFiles: files } : {}) };
}

export function completed(scan: ScanRef, issues: StoredIssue[], unreadable = 0): ScanEvent {
  return { kind: 'completed', findings: { scan, issues, archived: new Set(FILES), unreadable } };
}

/** The folder's findings as `path:id`, sorted. */
export function shown(m: FindingsModel, folder = FOLDER): string[] {
  return m.issuesIn(folder).map((i) => `${i.path}:${i.id}`).sort();
}
