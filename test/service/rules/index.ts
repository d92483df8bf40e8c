// The rule engine: language by extension, masking, every rule, fix diffs, triage.
import { fixDiff } from './fix';
import { hardcodedCredentials } from './credentials';
import { isTestPath } from './helpers';
import { jsCommandInjection, jsConsole, jsDebugger, jsEval, jsLooseEquality, jsWeakRandom } from './javascript';
import { maskSource } from './mask';
import { pyBareExcept, pyEval, pyPrint, pyShellInjection } from './python';
import type { Finding, Language, Rule, SourceFile } from './types';

export const RULES: Rule[] = [
  jsEval, jsConsole, jsDebugger, jsLooseEquality, jsCommandInjection, jsWeakRandom,
  pyEval, pyPrint, pyBareExcept, pyShellInjection,
  hardcodedCredentials,
];

const MAX_FILE_BYTES = 512 * 1024;

export function languageOf(path: string): Language | undefined {
  if (/\.(js|jsx|mjs|cjs)$/i.test(path)) return 'JavaScript';
  if (/\.(ts|tsx|mts|cts)$/i.test(path) && !/\.d\.ts$/i.test(path)) return 'TypeScript';
  if (/\.py$/i.test(path)) return 'Python';
  return undefined;
}

/** Whether the engine wants this file's content at all. */
export function wantsFile(path: string, size: number): boolean {
  return size <= MAX_FILE_BYTES && languageOf(path) !== undefined;
}

export function sourceFile(path: string, text: string, language: Language): SourceFile {
  return {
    path,
    language,
    text,
    lines: text.split('\n'),
    code: maskSource(text, language).split('\n'),
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

function countEndpoints(file: SourceFile): number {
  const re = file.language === 'Python'
    ? /^\s*@\w+\.(route|get|post|put|patch|delete)\s*\(/
    : /\b(app|router|server)\.(get|post|put|patch|delete|all|use)\s*\(/;
  return file.code.filter((c) => re.test(c)).length;
}

/** Runs every rule for the file's language. `content` of a binary or minified file yields nothing. */
export function scanSource(path: string, content: Buffer | string): Finding[] {
  const language = languageOf(path);
  if (!language) return [];
  const buf = typeof content === 'string' ? Buffer.from(content) : content;
  if (buf.length > MAX_FILE_BYTES || buf.subarray(0, 8000).includes(0)) return [];
  const text = buf.toString('utf8');
  const file = sourceFile(path, text, language);
  if (file.lines.length > 0 && text.length / file.lines.length > 500) return []; // minified
  const endpointCount = countEndpoints(file);
  const test = isTestPath(path);
  const findings: Finding[] = [];
  for (const rule of RULES) {
    if (!rule.languages.includes(language)) continue;
    for (const raw of rule.check(file)) {
      const reasoning = raw.falsePositive
        ?? (test ? `Found in test code (${path}); the pattern is still worth fixing but does not ship.` : `The ${rule.classification.name.toLowerCase()} pattern is in code that ships (${path}).`);
      findings.push({
        ruleId: rule.id,
        list: rule.list,
        classification: rule.classification,
        urgency: rule.urgency,
        path,
        language,
        line: raw.line,
        column: raw.column,
        snippet: file.lines[raw.line - 1].replace(/\r$/, '').trim().slice(0, 200),
        fix: raw.fix ? { diff: fixDiff(file, raw.fix.edits), explanation: raw.fix.explanation } : undefined,
        triage: { status: raw.falsePositive ? 'false_positive' : 'valid', reasoning },
        endpointCount,
      });
    }
  }
  return findings.sort((a, b) => a.line - b.line || a.ruleId.localeCompare(b.ruleId));
}
