// Shared pieces of the rules: test-path detection, safe statement removal, Python imports.
import { newLine } from './fix';
import { closingParen, indentOf } from './mask';
import type { LineEdit, SourceFile } from './types';

export function isTestPath(path: string): boolean {
  return /(^|\/)(tests?|__tests__|specs?)\//i.test(path)
    || /\.(test|spec)\.[cm]?[jt]sx?$/i.test(path)
    || /(^|\/)test_[^/]*\.py$/i.test(path)
    || /_test\.py$/i.test(path);
}

export function prevCodeLine(file: SourceFile, index: number): number {
  for (let i = index - 1; i >= 0; i--) if (file.code[i].trim() !== '') return i;
  return -1;
}

export function nextCodeLine(file: SourceFile, index: number): number {
  for (let i = index + 1; i < file.code.length; i++) if (file.code[i].trim() !== '') return i;
  return -1;
}

/**
 * The call starting at `start` (index of the callee) is the whole statement of its line:
 * the parentheses close on the line and only an optional `;` follows.
 */
export function isWholeLineCall(code: string, start: number): boolean {
  if (code.slice(0, start).trim() !== '') return false;
  const open = code.indexOf('(', start);
  if (open < 0) return false;
  const close = closingParen(code, open);
  return close >= 0 && /^\s*;?\s*$/.test(code.slice(close + 1));
}

/**
 * Edit that removes line `index` from a JS/TS file, or undefined when removing it would
 * change what the next statement belongs to (body of a brace-less if/for/while/else).
 */
export function removeJsStatement(file: SourceFile, index: number): LineEdit[] | undefined {
  const prev = prevCodeLine(file, index);
  if (prev >= 0) {
    const p = file.code[prev].trimEnd();
    if (/\)$/.test(p) || /\belse$/.test(p) || /=>$/.test(p)) return undefined;
  }
  return [{ index, deleteCount: 1, insert: [] }];
}

/** Removes a Python statement line, writing `pass` when it is the only statement of its block. */
export function removePyStatement(file: SourceFile, index: number): LineEdit[] {
  const prev = prevCodeLine(file, index);
  const next = nextCodeLine(file, index);
  const indent = indentOf(file.lines[index]).length;
  const opensBlock = prev >= 0 && file.code[prev].trimEnd().endsWith(':');
  const nextIndent = next >= 0 ? indentOf(file.lines[next]).length : -1;
  if (opensBlock && nextIndent < indent) {
    return [{ index, deleteCount: 1, insert: [newLine(file, `${indentOf(file.lines[index])}pass`)] }];
  }
  return [{ index, deleteCount: 1, insert: [] }];
}

/** Where a new top-level import goes: before the first import, after docstring and __future__ imports. */
function pythonImportIndex(file: SourceFile): number {
  const code = file.code;
  let i = 0;
  while (i < code.length && code[i].trim() === '') i++;
  if (i < code.length && /^\s*[rRuUbB]?("""|''')/.test(code[i])) {
    const q = /("""|''')/.exec(code[i])![1];
    let seen = 0;
    for (let j = i; j < code.length; j++) {
      seen += code[j].split(q).length - 1;
      if (seen >= 2) { i = j + 1; break; }
    }
  }
  for (let k = i; k < code.length; k++) {
    const line = code[k];
    if (/^(import|from)\s/.test(line) && !/^from\s+__future__\s/.test(line)) return k;
    if (/^from\s+__future__\s/.test(line)) i = k + 1;
    else if (line.trim() !== '' && !/^(import|from)\s/.test(line)) break;
  }
  return i;
}

/** Edit adding `import <module>` unless the file already imports it at top level. */
export function ensurePythonImport(file: SourceFile, module: string): LineEdit[] {
  const re = new RegExp(`^import\\s+([\\w.]+\\s*,\\s*)*${module}\\b`, 'm');
  if (re.test(file.code.join('\n'))) return [];
  return [{ index: pythonImportIndex(file), deleteCount: 0, insert: [newLine(file, `import ${module}`)] }];
}
