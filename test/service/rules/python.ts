// Rules for Python.
import { CWE_396, CWE_489, CWE_78, CWE_95 } from './classifications';
import { ensurePythonImport, isTestPath, isWholeLineCall, removePyStatement } from './helpers';
import { closingParen } from './mask';
import type { RawFinding, Rule } from './types';

export const pyEval: Rule = {
  id: 'py-eval',
  languages: ['Python'],
  classification: CWE_95,
  list: 'security',
  urgency: 'critical',
  check(file) {
    const out: RawFinding[] = [];
    file.code.forEach((code, i) => {
      const m = /(^|[^.\w])eval\s*\(/.exec(code);
      if (!m) return;
      const start = m.index + m[1].length;
      const finding: RawFinding = { line: i + 1, column: start + 1 };
      if (closingParen(code, code.indexOf('(', start)) > 0) {
        const line = file.lines[i];
        finding.fix = {
          edits: [
            { index: i, deleteCount: 1, insert: [`${line.slice(0, start)}ast.literal_eval${line.slice(start + 4)}`] },
            ...ensurePythonImport(file, 'ast'),
          ],
          explanation: 'eval() runs arbitrary code. ast.literal_eval() accepts only Python literals (strings, numbers, lists, dicts, ...) and raises ValueError for anything else.',
        };
      }
      out.push(finding);
    });
    return out;
  },
};

export const pyPrint: Rule = {
  id: 'py-print-debug',
  languages: ['Python'],
  classification: CWE_489,
  list: 'quality',
  urgency: 'low',
  check(file) {
    const out: RawFinding[] = [];
    const mainGuard = file.code.findIndex((c, k) => /^if\s+__name__\s*==/.test(c) && /__main__/.test(file.lines[k]));
    file.code.forEach((code, i) => {
      const m = /^\s*print\s*\(/.exec(code);
      if (!m) return;
      const start = code.indexOf('print');
      const finding: RawFinding = { line: i + 1, column: start + 1 };
      if (isWholeLineCall(code, start)) {
        finding.fix = { edits: removePyStatement(file, i), explanation: 'Removes the leftover print() call; use the logging module for output that should stay.' };
      }
      if (isTestPath(file.path)) finding.falsePositive = 'The output is in test code, which does not run in production.';
      else if (mainGuard >= 0 && i > mainGuard) finding.falsePositive = 'The output belongs to the script entry point (after if __name__ == "__main__"), where printing is intended.';
      out.push(finding);
    });
    return out;
  },
};

export const pyBareExcept: Rule = {
  id: 'py-bare-except',
  languages: ['Python'],
  classification: CWE_396,
  list: 'quality',
  urgency: 'medium',
  check(file) {
    const out: RawFinding[] = [];
    file.code.forEach((code, i) => {
      const m = /^(\s*)except\s*:/.exec(code);
      if (!m) return;
      const line = file.lines[i];
      out.push({
        line: i + 1,
        column: m[1].length + 1,
        fix: {
          edits: [{ index: i, deleteCount: 1, insert: [line.replace(/^(\s*)except\s*:/, '$1except Exception:')] }],
          explanation: 'Catches Exception instead of everything, so SystemExit and KeyboardInterrupt still stop the program.',
        },
      });
    });
    return out;
  },
};

export const pyShellInjection: Rule = {
  id: 'py-shell-injection',
  languages: ['Python'],
  classification: CWE_78,
  list: 'security',
  urgency: 'high',
  check(file) {
    const out: RawFinding[] = [];
    file.code.forEach((code, i) => {
      const line = file.lines[i];
      const dynamic = /\bf["']|["']\s*\+|\+\s*["']|\.format\(|["']\s*%/.test(line);
      const sub = /\bsubprocess\.(run|call|Popen|check_output|check_call)\s*\(/.exec(code);
      if (sub && /\bshell\s*=\s*True\b/.test(code) && dynamic) {
        out.push({ line: i + 1, column: sub.index + 1 });
        return;
      }
      const sys = /\bos\.system\s*\(/.exec(code);
      if (sys && dynamic) out.push({ line: i + 1, column: sys.index + 1 });
    });
    return out;
  },
};
