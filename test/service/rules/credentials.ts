// Hard-coded credentials (JS, TS, Python): a secret-named key assigned a string literal.
import { CWE_798 } from './classifications';
import { ensurePythonImport, isTestPath } from './helpers';
import type { LineEdit, RawFinding, Rule, SourceFile } from './types';

const SECRET_WORDS = new Set(['password', 'passwd', 'pwd', 'secret', 'token', 'credential', 'credentials', 'apikey']);
const SECRET_PAIRS = ['api_key', 'access_key', 'private_key', 'client_secret', 'secret_key', 'auth_token'];
const PLACEHOLDER = /^(\*+|x{3,}|<[^>]*>|\$\{.*\}|\{\{.*\}\}|your[-_ ].*|changeme|placeholder|todo|bearer|basic|none|null|undefined)$/i;
const DUMMY = /(dummy|fake|example|sample|test)/i;

function words(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[_$]+/).filter(Boolean);
}

export function isSecretName(name: string): boolean {
  const w = words(name);
  const joined = w.join('_');
  return w.some((x) => SECRET_WORDS.has(x)) || SECRET_PAIRS.some((p) => joined.includes(p));
}

export function envName(name: string): string {
  return words(name).join('_').toUpperCase();
}

function fixFor(file: SourceFile, i: number, from: number, to: number, env: string): { edits: LineEdit[]; explanation: string } {
  const line = file.lines[i];
  const py = file.language === 'Python';
  const expr = py ? `os.environ["${env}"]` : `process.env.${env}`;
  const edits: LineEdit[] = [{ index: i, deleteCount: 1, insert: [`${line.slice(0, from)}${expr}${line.slice(to)}`] }];
  if (py) edits.push(...ensurePythonImport(file, 'os'));
  return {
    edits,
    explanation: `Reads the secret from the ${env} environment variable instead of the source. The old value is in the repository history: rotate it.`,
  };
}

export const hardcodedCredentials: Rule = {
  id: 'hardcoded-credentials',
  languages: ['JavaScript', 'TypeScript', 'Python'],
  classification: CWE_798,
  list: 'security',
  urgency: 'high',
  check(file) {
    const out: RawFinding[] = [];
    // Optional type annotation (TS `key: string = '...'`, Python `key: str = "..."`).
    const re = /([A-Za-z_$][\w$]*)(["']?)\s*(?::\s*[\w.<>[\]| ]+?\s*)?(:|=)\s*(["'])([^"'\\\r\n]{4,200})\4/g;
    file.lines.forEach((line, i) => {
      const code = file.code[i];
      for (const m of line.matchAll(re)) {
        const [whole, key, , op, , value] = m;
        const opAt = m.index! + whole.indexOf(op, key.length);
        const valueAt = m.index! + whole.length - value.length - 2;
        // The operator and the value's quotes must be code, not text inside a string or comment.
        if (code[opAt] !== op || code[valueAt] !== m[4]) continue;
        if (!isSecretName(key) || PLACEHOLDER.test(value.trim()) || /\s.*\s/.test(value)) continue;
        const finding: RawFinding = {
          line: i + 1,
          column: m.index! + 1,
          fix: fixFor(file, i, valueAt, valueAt + value.length + 2, envName(key)),
        };
        if (isTestPath(file.path)) finding.falsePositive = 'The value is in test code, where fixture credentials are expected.';
        else if (DUMMY.test(value)) finding.falsePositive = `The value "${value}" looks like a placeholder, not a real credential.`;
        out.push(finding);
        break;
      }
    });
    return out;
  },
};
