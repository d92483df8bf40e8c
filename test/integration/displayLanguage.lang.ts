// The extension in the user's language, in a real VS Code started in it (run-offline's
// language windows: `--locale` and a display-language pack): sign-in, a scan, the tree,
// Problems and the hover, a fix preview and the details page show no English of ours. Run twice:
// - in Japanese: no phrase of two words or more of our English messages
//   (l10n/bundle.l10n.json, package.nls.json) shows that the Japanese bundle does not keep
//   as it is (product names, setting keys);
// - in the pseudo-locale (a copy whose bundle accents and marks ⟦…⟧ every message): no
//   English word at all is left outside the marks, so a word that never went through
//   l10n.t is found even when it is one word.
// The service's own text (finding names, descriptions, paths) stays as the service wrote it
// and is taken out first. Screenshots of each step are kept (CODE_SCANNER_TEST_ARTEFACTS).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { EXTENSION_ID, FAST, api, env, keepArtefact, quickInput, viewRows, waitFor } from './helpers';
import type { LocatedIssue } from '../../src/editor/results/resultsStore';

const LANGUAGE = process.env.CODE_SCANNER_TEST_LANGUAGE ?? 'ja';
const PSEUDO = LANGUAGE === 'qps-ploc';

function extensionFile(rel: string): Record<string, string> {
  const root = vscode.extensions.getExtension(EXTENSION_ID)!.extensionUri.fsPath;
  return JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8')) as Record<string, string>;
}

let bundle: Record<string, string>;
let manifest: Record<string, string>;
/** Our words in this window's language: the message `english` as the bundle has it. */
const ours = (english: string) => bundle[english] ?? english;

/** Our English phrases the translation does not keep: what must not show. */
function englishPhrases(): string[] {
  const phrases = new Set<string>();
  const add = (english: string, translated: string) => {
    for (const part of english.split(/\{\d+\}|\$\([\w~-]+\)|<[^>]+>|\]\([^)]*\)|[\n[\]*_`"]/)) {
      const p = part.trim().replace(/^[\s,.;:·—()-]+|[\s,.;:·—()?…-]+$/g, '');
      if (/[A-Za-z]{2,}[\s/-]+[A-Za-z]{2,}/.test(p) && !translated.includes(p)) phrases.add(p);
    }
  };
  for (const key of Object.keys(extensionFile('l10n/bundle.l10n.json'))) add(key, bundle[key] ?? '');
  for (const [key, english] of Object.entries(extensionFile('package.nls.json'))) add(english, manifest[key] ?? '');
  return [...phrases].sort((a, b) => b.length - a.length);
}

/** The service's words about the findings (and their files' names), which stay as it wrote them. */
function serviceTexts(issues: readonly LocatedIssue[]): string[] {
  return issues.flatMap(({ issue, uri }) => [
    issue.classificationName, issue.classificationDescription, issue.classificationId, issue.path, issue.fix?.explanation, issue.fix?.diff,
    issue.triageReasoning, issue.scannerMetadata, issue.status, issue.urgency, issue.projectName, issue.branch, issue.language, issue.fileName,
    issue.explanation, issue.dependency?.name, issue.dependency?.version, issue.dependency?.ecosystem, issue.dependency?.cve, issue.dependency?.fixVersion,
    uri.path.split('/').pop(), ...(issue.policies ?? []).flatMap((p) => [p.name, p.guidance]),
    // The diff's lines one by one, as the page shows them: the project's code, not our words.
    ...(issue.fix?.diff.split('\n').map((line) => line.slice(1).trim()) ?? []),
  ]).filter((t): t is string => !!t && t.length > 2).sort((a, b) => b.length - a.length);
}

/** What VS Code itself adds to our words (translated by its own language pack, not ours). */
const VS_CODE_OWN = ['(Press \'Enter\' to confirm or \'Escape\' to cancel)'];

let english: string[];
let service: string[] = [];
let serviceWords = new Set<string>();

/**
 * What of ours is English in `texts`, once the service's words are taken out: in Japanese
 * our English phrases; in the pseudo-locale any word outside the ⟦…⟧ marks (names of
 * files, folders and the product, CWE ids, HTTP, and the AM/PM of Intl's fallback for a
 * locale it does not know aside).
 */
function englishIn(texts: readonly (string | undefined)[]): string[] {
  const found = new Set<string>();
  for (const raw of texts) {
    let text = raw ?? '';
    for (const s of [...service, ...VS_CODE_OWN]) text = text.split(s).join(' ');
    if (!PSEUDO) {
      for (const p of english) if (text.includes(p)) found.add(`${p}  ⟵  ${(raw ?? '').slice(0, 160)}`);
      continue;
    }
    while (/⟦[^⟦⟧]*⟧/.test(text)) text = text.replace(/⟦[^⟦⟧]*⟧/g, ' ');
    const words = (text.replace(/\$\([\w~-]+\)/g, ' ').replace(/\b[0-9a-f-]*\d[0-9a-f-]*\b/gi, ' ').replace(/[\w.-]+\.(js|ts|py|json|java|go|rb)\b/g, ' ').match(/[A-Za-z]{2,}/g) ?? [])
      .filter((w) => !serviceWords.has(w.toLowerCase()) && !/^(AM|PM|CWE|HTTP|ID|Code|Scanner|order|service|main|src|scripts|ops|tools|js|ts|py|ms)$/i.test(w));
    for (const w of words) found.add(`${w}  ⟵  ${(raw ?? '').slice(0, 160)}`);
  }
  return [...found];
}

/**
 * Sentences glued from translated pieces, in the pseudo-locale: two messages of ours side by
 * side with only spaces between, the first not a whole sentence (no closing punctuation) and
 * the second going on in lower case.
 * A translation of each piece cannot be read as one sentence in every language ("…です
 * はサービス上にあります"); such a sentence is one key, its values placed in it.
 */
function gluedIn(texts: readonly (string | undefined)[]): string[] {
  if (!PSEUDO) return [];
  const found: string[] = [];
  for (const text of texts) {
    const top: { start: number; end: number }[] = [];
    let depth = 0;
    let start = 0;
    for (let i = 0; i < (text ?? '').length; i++) {
      const c = text![i];
      if (c === '⟦' && depth++ === 0) start = i;
      else if (c === '⟧' && --depth === 0) top.push({ start, end: i });
    }
    for (let k = 1; k < top.length; k++) {
      const between = text!.slice(top[k - 1]!.end + 1, top[k]!.start);
      const piece = text!.slice(top[k - 1]!.start + 1, top[k - 1]!.end).trim();
      const next = text!.slice(top[k]!.start + 1, top[k]!.end).trim();
      // A sentence's next piece goes on in lower case; a label after a word of its own starts anew.
      if (/^[ \t]+$/.test(between) && !/[.!?:;…)。]$/.test(piece) && /^\p{Ll}/u.test(next)) found.push(`${text!.slice(top[k - 1]!.start, top[k]!.end + 1)}  ⟵  ${text!.slice(0, 160)}`);
    }
  }
  return found;
}

suite(`Display language ${LANGUAGE} (${PSEUDO ? 'pseudo-locale' : 'Japanese'}): no English of ours`, () => {
  suiteSetup(async () => {
    assert.strictEqual(vscode.env.language, LANGUAGE, `this window runs VS Code in ${LANGUAGE}`);
    await api();
    bundle = extensionFile(`l10n/bundle.l10n.${LANGUAGE}.json`);
    manifest = extensionFile(`package.nls.${LANGUAGE}.json`);
    english = englishPhrases();
    assert.ok(english.length > 500, `the English phrases to look for: ${english.length}`);
  });

  test('sign-in: the input box and what follows it', async () => {
    const a = await api();
    const before = a.notifications().at(-1)?.seq ?? 0;
    const signing = vscode.commands.executeCommand('codeScanner.signIn');
    const box = await waitFor('the sign-in input box', async () => ((await quickInput())?.visible ? quickInput() : undefined), 15_000);
    await keepArtefact('1-sign-in');
    await quickInput({ type: env('CODE_SCANNER_TEST_TOKEN'), enter: true });
    assert.ok(await signing, 'signed in');
    // Its title from our bundle: VS Code loaded the bundle of this language.
    assert.strictEqual(box?.title, ours('Code Scanner: Sign In'));
    assert.notStrictEqual(box?.title, 'Code Scanner: Sign In');
    assert.deepStrictEqual(englishIn([box?.title, box?.message, box?.placeholder]), [], JSON.stringify(box));
    const shown = a.notifications().filter((n) => n.seq > before);
    assert.ok(shown.length, 'signing in says so');
    assert.deepStrictEqual(englishIn(shown.flatMap((n) => [n.text, ...n.actions])), []);
    const tip = a.statusBar.tooltip;
    assert.deepStrictEqual(englishIn([a.statusBar.text, typeof tip === 'string' ? tip : tip?.value]), []);
    assert.deepStrictEqual(gluedIn([...shown.map((n) => n.text), a.statusBar.text, typeof tip === 'string' ? tip : tip?.value]), [], 'no sentence glued from pieces');
  });

  test('a scan: its progress, its end and the status bar', async () => {
    const a = await api();
    const before = a.notifications().at(-1)?.seq ?? 0;
    const summary = await vscode.commands.executeCommand<{ folders: { scanId?: string }[]; error?: unknown }>('codeScanner.scanWorkspace', FAST);
    assert.ok(summary?.folders[0]?.scanId, JSON.stringify(summary));
    assert.ok(a.issues().length > 0, 'the scan found issues');
    service = serviceTexts(a.issues());
    serviceWords = new Set(service.flatMap((s) => s.toLowerCase().match(/[a-z]{2,}/g) ?? []));
    const shown = a.notifications().filter((n) => n.seq > before);
    const finished = ours('Scan finished: {0}.').split('{0}')[0]!;
    assert.ok(shown.some((n) => n.text.includes(finished)), JSON.stringify(shown));
    await vscode.commands.executeCommand('notifications.showList');
    await keepArtefact('2-scan');
    await vscode.commands.executeCommand('notifications.hideList');
    assert.deepStrictEqual(englishIn(shown.flatMap((n) => [n.text, ...n.actions])), []);
    const tip = a.statusBar.tooltip;
    assert.deepStrictEqual(englishIn([a.statusBar.text, typeof tip === 'string' ? tip : tip?.value, a.statusBar.accessibilityInformation?.label]), []);
    assert.deepStrictEqual(gluedIn([...shown.map((n) => n.text), a.statusBar.text, typeof tip === 'string' ? tip : tip?.value, a.statusBar.accessibilityInformation?.label]), [], 'no sentence glued from pieces');
  });

  test('the tree: rows, their descriptions, tooltips and accessible labels', async () => {
    const a = await api();
    await vscode.commands.executeCommand('codeScanner.showIssues');
    const texts: (string | undefined)[] = [];
    const walk = async (nodes: readonly unknown[] | null | undefined, depth: number) => {
      for (const n of nodes ?? []) {
        const item = await a.issuesTree.getTreeItem(n as never);
        const label = typeof item.label === 'string' ? item.label : item.label?.label;
        const tip = item.tooltip;
        texts.push(label, typeof item.description === 'string' ? item.description : undefined, typeof tip === 'string' ? tip : tip?.value, item.accessibilityInformation?.label);
        if (depth < 3) await walk(await a.issuesTree.getChildren(n as never), depth + 1);
      }
    };
    await walk(await a.issuesTree.getChildren(), 0);
    assert.ok(texts.length > 10, `tree texts: ${texts.length}`);
    const title = manifest['view.codeScanner.issues.name']!;
    // Read again until the view has drawn them (its window may be slow to).
    let rows: string[] | undefined;
    await waitFor('the view\'s rows', async () => (rows = await viewRows(title, { alone: true }))?.length, 20_000).catch(() => undefined);
    assert.ok(rows?.length, `the Quality Issues view (${title}) shows rows: ${JSON.stringify(rows)}`);
    await keepArtefact('3-tree');
    assert.deepStrictEqual(englishIn([...texts, ...rows!]), []);
    assert.deepStrictEqual(gluedIn([...texts, ...rows!]), [], 'no sentence glued from pieces');
    // Urgencies are one word: not one of the English ones on a row.
    assert.deepStrictEqual(rows!.filter((r) => /\b(Critical|High|Medium|Low)\b/.test(r)), []);
  });

  test('Problems and the hover: each finding\'s message, its urgency in this language', async () => {
    const a = await api();
    const messages = vscode.languages.getDiagnostics().flatMap(([, ds]) => ds).filter((d) => d.source === 'Code Scanner').map((d) => d.message);
    assert.strictEqual(messages.length, a.issues().length, 'a diagnostic per finding');
    const urgencies = ['Critical', 'High', 'Medium', 'Low'];
    for (const m of messages) assert.ok(urgencies.some((u) => m.includes(`(${ours(u)})`)), `the urgency in ${LANGUAGE}: ${m}`);
    const l = a.issues()[0]!;
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', l.uri, l.issue.range!.start);
    const hover = hovers.flatMap((h) => h.contents).map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')).join('\n')
      .replace(/\]\([^)]*\)/g, ']').replace(/\\(.)/g, '$1');
    assert.ok(hover.length > 0, 'the finding\'s hover');
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await keepArtefact('4-problems');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    assert.deepStrictEqual(englishIn([...messages, hover]), []);
    assert.deepStrictEqual(gluedIn([...messages, hover]), [], 'no sentence glued from pieces');
  });

  test('a fix preview: its title and what it says', async () => {
    const a = await api();
    const l = a.issues().find((x) => x.issue.fix && x.issue.inArchive);
    assert.ok(l, 'a finding with a fix');
    const before = a.notifications().at(-1)?.seq ?? 0;
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.previewFix', { folderUri: l.folderUri, issueId: l.issue.id }), true);
    const tab = await waitFor('the fix preview', () => vscode.window.tabGroups.activeTabGroup.activeTab?.label.includes('↔') && vscode.window.tabGroups.activeTabGroup.activeTab);
    await keepArtefact('5-fix-preview');
    assert.deepStrictEqual(englishIn([tab.label, ...a.notifications().filter((n) => n.seq > before).map((n) => n.text)]), []);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('the details page: every word of ours on it, and its title', async () => {
    const a = await api();
    const l = a.issues().find((x) => x.issue.fix && x.issue.inArchive)!;
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.showDetails', { folderUri: l.folderUri, issueId: l.issue.id }), true);
    const page = await waitFor('the details page', () => a.details());
    await keepArtefact('6-details');
    const title = vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '';
    assert.doesNotMatch(title, /\b(Critical|High|Medium|Low)\b/, title);
    const html = page.html.replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, ' ');
    const text = html.replace(/<[^>]+>/g, '\n')
      .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, '\'').replace(/&amp;/g, '&').replace(/&nbsp;/g, ' ');
    const attributes = [...html.matchAll(/(?:aria-label|title|alt)="([^"]*)"/g)].map((m) => m[1]);
    assert.ok(text.includes(ours('Auto-fix')), 'the page has its sections');
    assert.deepStrictEqual(englishIn([title, ...text.split('\n'), ...attributes]), []);
    assert.deepStrictEqual(gluedIn([title, ...text.split('\n'), ...attributes]), [], 'no sentence glued from pieces');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
