import * as vscode from 'vscode';
import { classificationUrl, kindOf, problemsMessage, severityFromUrgency, type IssueSeverity, type StoredIssue } from '../../core/issues';
import type { Ctx } from '../context';
import type { LocatedIssue } from './resultsStore';
import { issueRange } from '../workspaceFiles';
import { hideFalsePositives } from '../settings';

export const DIAGNOSTIC_SOURCE = 'Code Scanner';

const SEVERITY: Record<IssueSeverity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

/**
 * A finding's code in Problems: its list and its classification (`security/CWE-89`,
 * `dependency/CVE-2021-23337`), so the three lists stay apart wherever codes are compared.
 */
export function diagnosticCode(issue: StoredIssue): string {
  return `${kindOf(issue)}/${issue.classificationId}`;
}

/**
 * One code (with its CWE page's or CVE record's URI) per classification, and one copy of each message:
 * tens of thousands of diagnostics share a few dozen of each. Every diagnostic is kept by
 * its collection, so a copy each was heap the young generation copied while a full render
 * ran (its collections are the longest stalls of a refresh of 50,000 findings).
 */
const codes = new Map<string, vscode.Diagnostic['code']>();
const messages = new Map<string, string>();
const SHARED_MAX = 5000;

function codeFor(issue: StoredIssue): vscode.Diagnostic['code'] {
  const value = diagnosticCode(issue);
  let code = codes.get(value);
  if (code === undefined) {
    const url = classificationUrl(issue.classificationId);
    if (codes.size >= SHARED_MAX) codes.clear();
    code = url ? { value, target: vscode.Uri.parse(url) } : value;
    codes.set(value, code);
  }
  return code;
}

function shared(message: string): string {
  const known = messages.get(message);
  if (known !== undefined) return known;
  if (messages.size >= SHARED_MAX) messages.clear();
  messages.set(message, message);
  return message;
}

/**
 * Likely false positives (auto-triage) stay visible but quieter: Information severity and a
 * message prefix, so they are easy to tell apart without disappearing from Problems.
 */
export function toDiagnostic(issue: StoredIssue): vscode.Diagnostic {
  const d = new vscode.Diagnostic(
    issueRange(issue),
    shared(problemsMessage(issue)),
    issue.falsePositive ? vscode.DiagnosticSeverity.Information : SEVERITY[severityFromUrgency(issue.urgency)],
  );
  d.code = codeFor(issue);
  d.source = DIAGNOSTIC_SOURCE;
  return d;
}

/** A diagnostic's code as text (codes with a link are objects). */
export function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code ?? '');
}

/** Finds the stored finding a diagnostic was made from (code actions get copies, not the objects). */
export function issueForDiagnostic(candidates: LocatedIssue[], d: vscode.Diagnostic): LocatedIssue | undefined {
  if (d.source !== DIAGNOSTIC_SOURCE) return undefined;
  const code = codeOf(d);
  return candidates.find((c) => diagnosticCode(c.issue) === code && issueRange(c.issue).isEqual(d.range));
}

/**
 * How long one slice of a full render may hold the extension host (ms), and how many
 * diagnostics it may hand over: each `set` is serialized and sent to the window at once,
 * and in a remote window (code-server, SSH) also compressed. In a real VS Code on 2 cores
 * that cost 30-40 us a diagnostic, so 600 (two files of 500 went out in one slice, as the
 * count was checked only after each file) held the extension host 20-40 ms, before any
 * garbage collection landing in the same slice. A file's diagnostics go in one `set`
 * whatever their number: a slice never splits a file.
 */
const SLICE_MS = 8;
const SLICE_DIAGNOSTICS = 250;

/** Every placed finding in the Problems panel and as squiggles, following edits. */
export function diagnosticsFeature({ extension: context, store }: Pick<Ctx, 'extension' | 'store'>): vscode.DiagnosticCollection {
  const collection = vscode.languages.createDiagnosticCollection('codeScanner');
  let generation = 0;
  // Files set one by one while a full render runs: the render's snapshot of them is older.
  const setSinceFullRender = new Set<string>();
  // Problems and squiggles show every placed finding; view filters of the tree do not apply.
  const renderFiles = (uris: readonly vscode.Uri[]) => {
    const hideFp = hideFalsePositives();
    // Only the files that changed, from the per-file index.
    for (const uri of uris) {
      setSinceFullRender.add(uri.toString());
      collection.set(uri, store.forFile(uri).filter((l) => store.isShown(l.issue, hideFp)).map((l) => toDiagnostic(l.issue)));
    }
  };
  /**
   * Everything again, in slices: tens of thousands of diagnostics made at once held the
   * extension host for a third of a second. A newer render makes an older one stop.
   */
  const renderAll = async () => {
    const mine = ++generation;
    setSinceFullRender.clear();
    // Files that lost every finding (Clear Results, a new scan) are cleared at once: cheap, and expected without delay.
    const files = [...store.files()];
    const withFindings = new Set(files.map((f) => f.uri.toString()));
    const stale: vscode.Uri[] = [];
    collection.forEach((uri) => { if (!withFindings.has(uri.toString())) stale.push(uri); });
    for (const uri of stale) collection.delete(uri);
    // The rest never in the task that changed the store: its other listeners run there too.
    await new Promise<void>((r) => setImmediate(r));
    if (mine !== generation) return;
    const hideFp = hideFalsePositives();
    let sliceStart = performance.now();
    let sent = 0;
    for (const { uri, issues } of files) {
      // This file's findings would overfill the slice: the next slice takes them.
      if (sent > 0 && (sent + issues.length > SLICE_DIAGNOSTICS || performance.now() - sliceStart > SLICE_MS)) {
        await new Promise<void>((r) => setTimeout(r, 0));
        if (mine !== generation) return;
        sliceStart = performance.now();
        sent = 0;
      }
      if (setSinceFullRender.has(uri.toString())) continue;
      const shown = issues.filter((i) => store.isShown(i, hideFp));
      if (shown.length) collection.set(uri, shown.map(toDiagnostic));
      else collection.delete(uri);
      sent += shown.length;
    }
  };
  void renderAll();
  context.subscriptions.push(
    collection,
    store.onDidChange((e) => (e.uris ? renderFiles(e.uris) : void renderAll())),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('codeScanner.hideFalsePositives')) void renderAll();
    }),
    { dispose: () => void ++generation },
  );
  return collection;
}
