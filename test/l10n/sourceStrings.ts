// The extension's words as its sources hold them: every l10n.t message (the English bundle,
// l10n/bundle.l10n.json, is exactly these), and the literal sentences that do not go through
// l10n.t (the guard against a new user-visible string written in English only).
import * as ts from 'typescript';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Sources whose words are not the person's: the agents' bridge (a separate process speaking
 * to programs), the loader, the request encoder, and what is written for a language model
 * (tool definitions, the chat prompt, the frame around tool results), which reads English.
 */
const NOT_FOR_PEOPLE = /^src\/(mcp\/|loader\.ts|core\/load\/|core\/api\/multipart\.ts|core\/agent\/(toolDefinitions|chatPrompt|toolText|channel)\.ts)/;

/** Whether markup holds words of its own: text between tags, or a label, title or alt attribute. */
function markupWords(html: string): boolean {
  const bare = html.replace(/<(script|style)[^]*?<\/\1>/gi, ' ').replace(/<!--[^]*?-->/g, ' ');
  const between = bare.replace(/<[^>]*>/g, '\n').split('\n');
  const attributes = [...bare.matchAll(/(?:aria-label|title|alt|placeholder)="([^"$]*)"/g)].map((m) => m[1]);
  return [...between, ...attributes].some((t) => /[A-Za-z]{3,}/.test(t.replace(/\$\{[^}]*\}/g, '').replace(/&\w+;/g, '')));
}

/** Properties whose text a person reads. */
const PEOPLE_READ = /^(label|title|description|detail|tooltip|placeHolder|prompt|text|message)$/;

/** Literals that are code, markup, an endpoint or an address, not words. */
const NOT_WORDS = /^\s*(<|(GET|POST|PATCH|HEAD|PUT|DELETE) \/|https?:\/\/|'use strict'|const |\/|(issue|group|folder|policy|command):|--|\.|\^|HEAD|Bearer |Basic |zlib: )/;

export function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (rel.endsWith('.ts') && !rel.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk('src');
  return out.sort();
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

const isT = (n: ts.CallExpression, sf: ts.SourceFile) => /(^|\.)l10n\.t$/.test(n.expression.getText(sf));

/** Every message given to l10n.t, in source order, with where it is. */
export function messages(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles()) {
    const sf = parse(file);
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n) && isT(n, sf)) {
        const first = n.arguments[0];
        if (!first || !(ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
          throw new Error(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: l10n.t needs its message as one literal string, so it can be translated`);
        }
        if (!found.has(first.text)) found.set(first.text, `${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

/** The English bundle: each message as its own translation, keys sorted. */
export function englishBundle(): Record<string, string> {
  return Object.fromEntries([...messages().keys()].sort().map((k) => [k, k]));
}

const LOG_CALL = /(^|\.)(log|logger|output|channel|out)\.(info|warn|error|debug|trace|append|appendLine)$|^console\./;
const DATA_CALL = /(^|\.)(executeCommand|registerCommand|getConfiguration|get|update|inspect|startsWith|endsWith|includes|split|indexOf|replace|match|test|has|add|set|delete|join|RegExp|from|createHash|write)$/;

/**
 * Sentences (two words or more) written as literals outside l10n.t, other than where no
 * person reads them: log lines, comparisons, keys, calls that take data. `file:line text`.
 */
export function untranslatedSentences(): string[] {
  const out: string[] = [];
  for (const file of sourceFiles()) {
    if (NOT_FOR_PEOPLE.test(file)) continue;
    const sf = parse(file);
    const exempt = (n: ts.Node): boolean => {
      let child: ts.Node = n;
      for (let p = n.parent; p; child = p, p = p.parent) {
        if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || ts.isLiteralTypeNode(p) || ts.isTaggedTemplateExpression(p)) return true;
        if (ts.isCaseClause(p) && p.expression === child) return true;
        if ((ts.isPropertyAssignment(p) || ts.isPropertySignature(p) || ts.isEnumMember(p)) && p.name === child) return true;
        if (ts.isElementAccessExpression(p) && p.argumentExpression === child) return true;
        if (ts.isBinaryExpression(p) && /^(===|!==|==|!=)$/.test(p.operatorToken.getText(sf))) return true;
        if (ts.isCallExpression(p) || ts.isNewExpression(p)) {
          const callee = p.expression.getText(sf);
          if (LOG_CALL.test(callee) || (ts.isCallExpression(p) && isT(p, sf))) return true;
          if (p.arguments?.includes(child as ts.Expression) && DATA_CALL.test(callee)) return true;
        }
      }
      return false;
    };
    const visit = (n: ts.Node) => {
      let text: string | undefined;
      let words = false;
      if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
        text = n.text;
        // A sentence, or one word where a person reads it (a label, a title, a tooltip).
        words = (/[A-Za-z]{2,}[^\n]*\s[^\n]*[A-Za-z]{2,}/.test(text) && /[a-z]{2,}/.test(text))
          || (/^[A-Z][a-z]{2,}…?$/.test(text) && ts.isPropertyAssignment(n.parent) && PEOPLE_READ.test(n.parent.name.getText(sf)));
      } else if (ts.isTemplateExpression(n)) {
        text = n.head.text + n.templateSpans.map((s) => ` ${s.literal.text}`).join('');
        // Words around values: one word is enough ("Folder ${name}"); icons ($(sync~spin)) are not words.
        words = /[A-Za-z]{3,}/.test(text.replace(/\$\([\w~-]+\)/g, ''));
      }
      // Markup: the words between its tags and in the attributes a person reads or hears.
      if (text !== undefined && /^\s*</.test(text)) words = markupWords(text);
      if (text !== undefined && words && (!NOT_WORDS.test(text) || /^\s*</.test(text)) && !exempt(n)) {
        out.push(`${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1} ${text.replace(/\s+/g, ' ').slice(0, 120)}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}
