import * as vscode from 'vscode';
import { severityFromUrgency, type IssueSeverity, type Range, type StoredIssue } from '../core/issues';
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
  d.code = issue.classificationId;
  d.source = DIAGNOSTIC_SOURCE;
  return d;
}

/** Finds the stored finding a diagnostic was made from (code actions get copies, not the objects). */
export function issueForDiagnostic(candidates: LocatedIssue[], d: vscode.Diagnostic): LocatedIssue | undefined {
  if (d.source !== DIAGNOSTIC_SOURCE) return undefined;
  const code = typeof d.code === 'object' ? String(d.code.value) : String(d.code);
  return candidates.find((c) => c.issue.classificationId === code && issueRange(c.issue).isEqual(d.range));
}

export function registerDiagnostics(context: vscode.ExtensionContext, store: ResultsStore): vscode.DiagnosticCollection {
  const collection = vscode.languages.createDiagnosticCollection('codeScanner');
  const render = (uris?: vscode.Uri[]) => {
    const hideFp = hideFalsePositives();
    const byFile = new Map<string, { uri: vscode.Uri; diags: vscode.Diagnostic[] }>();
    const wanted = uris && new Set(uris.map((u) => u.toString()));
    for (const u of uris ?? []) byFile.set(u.toString(), { uri: u, diags: [] });
    for (const l of store.all()) {
      const key = l.uri.toString();
      if (wanted && !wanted.has(key)) continue;
      if (hideFp && l.issue.falsePositive) continue;
      let entry = byFile.get(key);
      if (!entry) byFile.set(key, (entry = { uri: l.uri, diags: [] }));
      entry.diags.push(toDiagnostic(l.issue));
    }
    if (!uris) collection.clear();
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
