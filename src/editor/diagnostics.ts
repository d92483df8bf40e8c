import * as vscode from 'vscode';
import { cweUrl, severityFromUrgency, type IssueSeverity, type Range, type StoredIssue } from '../core/issues';
import type { LocatedIssue, ResultsStore } from './resultsStore';
import { hideFalsePositives } from './settings';

export const DIAGNOSTIC_SOURCE = 'Code Scanner';

const SEVERITY: Record<IssueSeverity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  information: vscode.DiagnosticSeverity.Information,
  hint: vscode.DiagnosticSeverity.Hint,
};

export function toVsRange(r: Range): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

export function issueRange(issue: StoredIssue): vscode.Range {
  return issue.range ? toVsRange(issue.range) : new vscode.Range(issue.line - 1, 0, issue.line - 1, 0);
}

/**
 * Likely false positives (auto-triage) stay visible but quieter: Information severity and a
 * message prefix, so they are easy to tell apart without disappearing from Problems.
 */
export function toDiagnostic(issue: StoredIssue): vscode.Diagnostic {
  const prefix = issue.falsePositive ? 'Likely false positive: ' : '';
  const detail = issue.classificationDescription ? ` — ${issue.classificationDescription}` : '';
  const d = new vscode.Diagnostic(
    issueRange(issue),
    `${prefix}${issue.classificationName} (${issue.urgency})${detail}`,
    issue.falsePositive ? vscode.DiagnosticSeverity.Information : SEVERITY[severityFromUrgency(issue.urgency)],
  );
  const cwe = cweUrl(issue.classificationId);
  d.code = cwe ? { value: issue.classificationId, target: vscode.Uri.parse(cwe) } : issue.classificationId;
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
  return candidates.find((c) => c.issue.classificationId === code && issueRange(c.issue).isEqual(d.range));
}

export function registerDiagnostics(context: vscode.ExtensionContext, store: ResultsStore): vscode.DiagnosticCollection {
  const collection = vscode.languages.createDiagnosticCollection('codeScanner');
  // Problems and squiggles show every placed finding; view filters of the tree do not apply.
  const render = (uris?: vscode.Uri[]) => {
    const hideFp = hideFalsePositives();
    if (uris) {
      // Only the files that changed, from the per-file index.
      for (const uri of uris) collection.set(uri, store.forFile(uri).filter((l) => store.isShown(l.issue, hideFp)).map((l) => toDiagnostic(l.issue)));
      return;
    }
    const byFile = new Map<string, { uri: vscode.Uri; diags: vscode.Diagnostic[] }>();
    for (const l of store.all()) {
      if (!store.isShown(l.issue, hideFp)) continue;
      const key = l.uri.toString();
      let entry = byFile.get(key);
      if (!entry) byFile.set(key, (entry = { uri: l.uri, diags: [] }));
      entry.diags.push(toDiagnostic(l.issue));
    }
    collection.clear();
    for (const { uri, diags } of byFile.values()) collection.set(uri, diags);
  };
  render();
  context.subscriptions.push(
    collection,
    store.onDidChange((e) => render(e.uris)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('codeScanner.hideFalsePositives')) render();
    }),
  );
  return collection;
}
