// Findings as SARIF 2.1.0 (OASIS): one run per workspace folder, rules from classifications
// with references into the CWE taxonomy, results where the findings are now (tracked through
// edits), fixes as replacements computed against the current text, and false positives and
// local dismissals as suppressions. The text of every message comes from the service, so it
// is escaped: SARIF viewers turn `[text](target)` in a plain-text message into a link.
import type * as Sarif from 'sarif';
import { applyFix } from '../fixes/applyFix';
import { isInsideFolder } from '../workspace/insideFolder';
import { computeLineEdits } from '../fixes/lineEdits';
import { classificationUrl } from '../issues/cwe';
import { kindOf, serviceIdOf } from '../issues/kinds';
import { factData, type FindingFact } from '../issues/facts';
import type { StoredIssue } from '../issues/model';
import { normalizeUrgency, severityFromUrgency } from '../issues/severity';
import { l10n } from '../text/l10n';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

export interface ExportedFinding {
  issue: StoredIssue;
  /** Set aside in this editor (the service has no such state). */
  dismissal?: { reason: string; at: string };
}

export interface ExportedFolder {
  /** The folder's URI (`file:///…`); results are relative to it. */
  folderUri: string;
  name: string;
  findings: readonly ExportedFinding[];
  /** The current text of a file, to place fixes; undefined when it cannot be read. */
  readText(relPath: string): string | undefined;
  /** The scans these findings came from (newest last). */
  scanIds: readonly string[];
}

export interface ExportOptions {
  tool: { name: string; version: string; informationUri?: string };
  /** The table of a finding's facts (the properties of each result). */
  facts?: readonly FindingFact[];
}

/** Plain-text SARIF message: brackets escaped so no embedded link is made of server text. */
export function sarifText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

const LEVEL: Record<ReturnType<typeof severityFromUrgency>, Sarif.Result.level> = {
  error: 'error', warning: 'warning', information: 'note', hint: 'note',
};

function cweNumber(classificationId: string): string | undefined {
  return /^\s*CWE[-_ ]?(\d{1,5})\s*$/i.exec(classificationId)?.[1]?.replace(/^0+(?=\d)/, '');
}

/** 1-based line and column (UTF-16 code units, SARIF's default) of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** A relative URI reference for a path: each segment encoded, so `#`, `?` and `%` in a name stay part of it. */
export function relativeUri(relPath: string): string {
  return relPath.split('/').map(encodeURIComponent).join('/');
}

function lineOffsets(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}

/** The finding's fix as SARIF replacements against `text`, or undefined when it does not apply to it. */
export function sarifFix(issue: StoredIssue, text: string, artifactLocation: Sarif.ArtifactLocation): Sarif.Fix | undefined {
  if (!issue.fix?.diff) return undefined;
  const r = applyFix(issue.fix.diff, text, issue.path);
  if (!r.ok) return undefined;
  const starts = lineOffsets(text);
  const offsetOf = (line: number) => (line < starts.length ? starts[line]! : text.length);
  const replacements: Sarif.Replacement[] = computeLineEdits(text, r.text).map((e) => {
    const from = offsetOf(e.startLine);
    const to = Math.max(from, Math.min(offsetOf(e.endLine), text.length));
    const a = lineColumn(text, from);
    const b = lineColumn(text, to);
    return {
      deletedRegion: { charOffset: from, charLength: to - from, startLine: a.line, startColumn: a.column, endLine: b.line, endColumn: b.column },
      insertedContent: { text: e.text },
    };
  });
  if (!replacements.length) return undefined;
  return {
    description: { text: sarifText(issue.fix.explanation || l10n.t('Fix suggested by the service')) },
    artifactChanges: [{ artifactLocation, replacements }],
  };
}

function region(issue: StoredIssue): Sarif.Region {
  if (!issue.range) return { startLine: Math.max(1, issue.line) };
  const { start, end } = issue.range;
  return { startLine: start.line + 1, startColumn: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1 };
}

function suppressions(f: ExportedFinding): Sarif.Suppression[] | undefined {
  const out: Sarif.Suppression[] = [];
  if (f.issue.falsePositive) {
    out.push({
      kind: 'external', status: 'underReview',
      justification: sarifText(l10n.t('The service\'s auto-triage judged this a likely false positive{0}', f.issue.triageReasoning ? `: ${f.issue.triageReasoning}` : '.')),
    });
  }
  if (f.dismissal) {
    out.push({ kind: 'external', status: 'accepted', justification: sarifText(l10n.t('Dismissed in the editor as {0} on {1}.', f.dismissal.reason.replace(/-/g, ' '), f.dismissal.at)) });
  }
  return out.length ? out : undefined;
}

function run(folder: ExportedFolder, o: ExportOptions): Sarif.Run {
  const rules: Sarif.ReportingDescriptor[] = [];
  const ruleIndex = new Map<string, number>();
  const taxa = new Map<string, Sarif.ReportingDescriptor>();
  const artifacts: Sarif.Artifact[] = [];
  const artifactIndex = new Map<string, number>();
  const texts = new Map<string, string | undefined>();
  const results: Sarif.Result[] = [];
  for (const f of folder.findings) {
    const { issue } = f;
    // A path out of the folder (`../`, absolute) would point a SARIF viewer outside it.
    if (!isInsideFolder(issue.path)) continue;
    let rIndex = ruleIndex.get(issue.classificationId);
    if (rIndex === undefined) {
      const cwe = cweNumber(issue.classificationId);
      const help = classificationUrl(issue.classificationId);
      if (cwe && !taxa.has(cwe)) taxa.set(cwe, { id: cwe, name: sarifText(issue.classificationName || `CWE-${cwe}`), helpUri: help });
      rIndex = rules.length;
      ruleIndex.set(issue.classificationId, rIndex);
      rules.push({
        id: issue.classificationId || 'unclassified',
        name: sarifText(issue.classificationName || issue.classificationId || l10n.t('Unclassified finding')),
        shortDescription: { text: sarifText(issue.classificationName || issue.classificationId || l10n.t('Unclassified finding')) },
        ...(issue.classificationDescription ? { fullDescription: { text: sarifText(issue.classificationDescription) } } : {}),
        ...(help ? { helpUri: help } : {}),
        ...(cwe ? { relationships: [{ target: { id: cwe, toolComponent: { name: 'CWE' } }, kinds: ['relevant'] }] } : {}),
        properties: { tags: [] },
      });
    }
    // Viewers (GitHub code scanning among them) sort rules by their tags: the lists the rule's findings came from.
    const tags = rules[rIndex]!.properties!.tags!;
    if (!tags.includes(kindOf(issue))) tags.push(kindOf(issue));
    let aIndex = artifactIndex.get(issue.path);
    if (aIndex === undefined) {
      aIndex = artifacts.length;
      artifactIndex.set(issue.path, aIndex);
      artifacts.push({ location: { uri: relativeUri(issue.path), uriBaseId: 'SRCROOT' } });
    }
    const artifactLocation: Sarif.ArtifactLocation = { uri: relativeUri(issue.path), uriBaseId: 'SRCROOT', index: aIndex };
    if (!texts.has(issue.path)) texts.set(issue.path, folder.readText(issue.path));
    const text = texts.get(issue.path);
    const fix = text === undefined || issue.inArchive === false ? undefined : sarifFix(issue, text, artifactLocation);
    const urgency = normalizeUrgency(issue.urgency);
    const description = issue.classificationDescription ? ` — ${issue.classificationDescription}` : '';
    results.push({
      ruleId: issue.classificationId || 'unclassified',
      ruleIndex: rIndex,
      level: issue.falsePositive ? 'note' : LEVEL[severityFromUrgency(issue.urgency)],
      message: { text: sarifText(`${issue.classificationName || issue.classificationId} (${urgency})${description}`) },
      locations: [{ physicalLocation: { artifactLocation, region: region(issue) } }],
      // The finding's id in its list; a code quality finding's as before the lists were told apart.
      partialFingerprints: { 'codeScannerFinding/v1': kindOf(issue) === 'quality' ? serviceIdOf(issue) : issue.id },
      ...(fix ? { fixes: [fix] } : {}),
      ...(suppressions(f) ? { suppressions: suppressions(f) } : {}),
      properties: {
        ...factData(issue, 'sarif', o.facts),
        ...(issue.stale ? { placement: l10n.t('the file changed since the scan; the line is the one the service reported') } : {}),
      },
    });
  }
  return {
    tool: {
      driver: {
        name: o.tool.name, version: o.tool.version, ...(o.tool.informationUri ? { informationUri: o.tool.informationUri } : {}), rules,
        ...(taxa.size ? { supportedTaxonomies: [{ name: 'CWE' }] } : {}),
      },
    },
    ...(taxa.size ? {
      taxonomies: [{ name: 'CWE', organization: 'MITRE', informationUri: 'https://cwe.mitre.org/', isComprehensive: false, taxa: [...taxa.values()] }],
    } : {}),
    originalUriBaseIds: { SRCROOT: { uri: folder.folderUri.endsWith('/') ? folder.folderUri : `${folder.folderUri}/`, description: { text: sarifText(l10n.t('Workspace folder {0}', folder.name)) } } },
    artifacts,
    results,
    columnKind: 'utf16CodeUnits',
    ...(folder.scanIds.length ? { automationDetails: { id: `${o.tool.name}/${folder.scanIds.at(-1)}` } } : {}),
  };
}

export function toSarif(folders: readonly ExportedFolder[], o: ExportOptions): Sarif.Log {
  return { $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: folders.map((f) => run(f, o)) };
}
