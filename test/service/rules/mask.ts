// Blanks string contents and comments (keeping quotes, lengths and line breaks) so rules
// can match code with regular expressions without firing inside strings or comments.
import type { Language } from './types';

const blank = (ch: string) => (ch === '\n' || ch === '\r' ? ch : ' ');

export function maskSource(text: string, language: Language): string {
  return language === 'Python' ? maskPython(text) : maskJs(text);
}

function maskJs(s: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    const n = s[i + 1];
    if (c === '/' && n === '/') {
      while (i < s.length && s[i] !== '\n') out.push(blank(s[i++]));
    } else if (c === '/' && n === '*') {
      out.push(' ', ' ');
      i += 2;
      while (i < s.length && !(s[i] === '*' && s[i + 1] === '/')) out.push(blank(s[i++]));
      if (i < s.length) { out.push(' ', ' '); i += 2; }
    } else if (c === '"' || c === "'" || c === '`') {
      out.push(c);
      i++;
      while (i < s.length && s[i] !== c) {
        if (s[i] === '\\' && i + 1 < s.length) { out.push(' ', blank(s[i + 1])); i += 2; continue; }
        // An unterminated ' or " string ends at the line break.
        if (s[i] === '\n' && c !== '`') break;
        out.push(blank(s[i++]));
      }
      if (i < s.length && s[i] === c) { out.push(c); i++; }
    } else {
      out.push(c);
      i++;
    }
  }
  return out.join('');
}

function maskPython(s: string): string {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '#') {
      while (i < s.length && s[i] !== '\n') out.push(blank(s[i++]));
    } else if (c === '"' || c === "'") {
      const triple = s.startsWith(c.repeat(3), i);
      const q = triple ? c.repeat(3) : c;
      out.push(...q);
      i += q.length;
      while (i < s.length && !s.startsWith(q, i)) {
        if (s[i] === '\\' && i + 1 < s.length) { out.push(' ', blank(s[i + 1])); i += 2; continue; }
        if (s[i] === '\n' && !triple) break;
        out.push(blank(s[i++]));
      }
      if (s.startsWith(q, i)) { out.push(...q); i += q.length; }
    } else {
      out.push(c);
      i++;
    }
  }
  return out.join('');
}

/** Index of the parenthesis closing the one at `open` on the same (masked) line, or -1. */
export function closingParen(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    if (code[i] === '(') depth++;
    else if (code[i] === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

export function indentOf(line: string): string {
  return /^\s*/.exec(line)![0];
}
