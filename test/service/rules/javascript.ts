// Rules for JavaScript and TypeScript.
import { CWE_338, CWE_480, CWE_489, CWE_78, CWE_95 } from './classifications';
import { newLine } from './fix';
import { isTestPath, isWholeLineCall, removeJsStatement } from './helpers';
import { closingParen } from './mask';
import type { RawFinding, Rule } from './types';

const JS: Rule['languages'] = ['JavaScript', 'TypeScript'];

export const jsEval: Rule = {
  id: 'js-eval',
  languages: JS,
  classification: CWE_95,
  list: 'security',
  urgency: 'critical',
  check(file) {
    const out: RawFinding[] = [];
    file.code.forEach((code, i) => {
      const m = /(^|[^.\w$])eval\s*\(/.exec(code);
      if (!m) return;
      const start = m.index + m[1].length;
      const open = code.indexOf('(', start);
      const close = closingParen(code, open);
      const line = file.lines[i];
      const arg = close > 0 ? line.slice(open + 1, close).trim() : '';
      const finding: RawFinding = { line: i + 1, column: start + 1 };
      // Only a plain variable is clearly data; JSON.parse keeps its value without running code.
      if (/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(arg)) {
        finding.fix = {
          edits: [{ index: i, deleteCount: 1, insert: [`${line.slice(0, start)}JSON.parse(${arg})${line.slice(close + 1)}`] }],
          explanation: `eval() executes whatever code ${arg} holds. The value is data, so JSON.parse(${arg}) reads it without executing anything.`,
        };
      }
      out.push(finding);
    });
    return out;
  },
};

export const jsConsole: Rule = {
  id: 'js-console-debug',
  languages: JS,
  classification: CWE_489,
  list: 'quality',
  urgency: 'low',
  check(file) {
    const out: RawFinding[] = [];
    file.code.forEach((code, i) => {
      const m = /^\s*console\.(log|debug|trace|dir|info)\s*\(/.exec(code);
      if (!m) return;
      const start = code.indexOf('console');
      const finding: RawFinding = { line: i + 1, column: start + 1 };
      const edits = isWholeLineCall(code, start) ? removeJsStatement(file, i) : undefined;
      if (edits) finding.fix = { edits, explanation: `Removes the leftover console.${m[1]}() call so debugging output does not reach production logs.` };
      if (isTestPath(file.path)) finding.falsePositive = 'The output is in test code, which does not run in production.';
      out.push(finding);
    });
    return out;
  },
};

export const jsDebugger: Rule = {
  id: 'js-debugger',
  languages: JS,
  classification: CWE_489,
  list: 'quality',
  urgency: 'medium',
  check(file) {
    const out: RawFinding[] = [];
    file.code.forEach((code, i) => {
      const m = /^\s*debugger\s*;?\s*$/.exec(code);
      if (!m) return;
      const finding: RawFinding = { line: i + 1, column: code.indexOf('debugger') + 1 };
      // A fix as a model may write it: the breakpoint's comment becomes a guard that says it,
      // written with ==, which the equality rule then reports (the sample project's fix that
      // adds a finding).
      const note = /\/\/\s*(\S.*?)\s*$/.exec(file.lines[i].replace(/\r$/, ''))?.[1];
      const edits = note && /^[\w ]+$/.test(note)
        ? [{ index: i, deleteCount: 1, insert: [newLine(file, `${file.lines[i].slice(0, code.indexOf('debugger'))}if (arguments[0] == '') console.warn('${note} without an argument');`)] }]
        : removeJsStatement(file, i);
      if (edits) finding.fix = { edits, explanation: note ? `Replaces the breakpoint with a warning when "${note}" happens without an argument.` : 'Removes the debugger statement, which pauses execution whenever developer tools are open.' };
      out.push(finding);
    });
    return out;
  },
};

export const jsLooseEquality: Rule = {
  id: 'js-loose-equality',
  languages: JS,
  classification: CWE_480,
  list: 'quality',
  urgency: 'low',
  check(file) {
    const out: RawFinding[] = [];
    file.code.forEach((code, i) => {
      const ops: number[] = [];
      for (const m of code.matchAll(/(?<![=!<>])(==|!=)(?!=)/g)) {
        const left = code.slice(0, m.index).trimEnd();
        const right = code.slice(m.index! + m[0].length).trimStart();
        // `x == null` is the idiom for "null or undefined"; === would change its meaning.
        if (/\b(null|undefined)$/.test(left) || /^(null|undefined)\b/.test(right)) continue;
        ops.push(m.index! + m[0].length);
      }
      if (!ops.length) return;
      let line = file.lines[i];
      for (const at of [...ops].reverse()) line = `${line.slice(0, at)}=${line.slice(at)}`;
      out.push({
        line: i + 1,
        column: ops[0] - 1,
        fix: {
          edits: [{ index: i, deleteCount: 1, insert: [line] }],
          explanation: 'Uses strict equality (===, !==), which compares without converting types.',
        },
      });
    });
    return out;
  },
};

export const jsCommandInjection: Rule = {
  id: 'js-command-injection',
  languages: JS,
  classification: CWE_78,
  list: 'security',
  urgency: 'high',
  check(file) {
    if (!file.text.includes('child_process')) return [];
    const out: RawFinding[] = [];
    file.code.forEach((code, i) => {
      const m = /(^|[^.\w$]|\b(?:child_process|childProcess|cp)\.)(exec|execSync)\s*\(/.exec(code);
      if (!m) return;
      const open = code.indexOf('(', m.index + m[0].length - 1);
      const close = closingParen(code, open);
      const arg = file.lines[i].slice(open + 1, close > 0 ? close : undefined);
      if (/`[^`]*\$\{/.test(arg) || /['"`]\s*\+|\+\s*['"`]/.test(arg)) {
        out.push({ line: i + 1, column: m.index + m[1].length + 1 });
      }
    });
    return out;
  },
};

/** Math.random() for a value that must not be guessed: a security finding at medium. */
export const jsWeakRandom: Rule = {
  id: 'js-weak-random',
  languages: JS,
  classification: CWE_338,
  list: 'security',
  urgency: 'medium',
  check(file) {
    const out: RawFinding[] = [];
    file.code.forEach((code, i) => {
      const at = code.indexOf('Math.random(');
      if (at < 0 || !/token|secret|password|key|nonce|salt|session/i.test(code)) return;
      const finding: RawFinding = { line: i + 1, column: at + 1 };
      // A fix as a model may write it, which leaves the finding (the sample project's fix
      // that does not remove its finding): the time mixed in is as guessable as before.
      const line = file.lines[i];
      const call = line.indexOf('Math.random()');
      if (call >= 0) {
        finding.fix = {
          edits: [{ index: i, deleteCount: 1, insert: [`${line.slice(0, call)}(Math.random() * Date.now())${line.slice(call + 'Math.random()'.length)}`] }],
          explanation: 'Mixes the current time into the value, so it is harder to guess.',
        };
      }
      out.push(finding);
    });
    return out;
  },
};
