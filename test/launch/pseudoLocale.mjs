// The pseudo-locale of the language tests: a copy of the extension whose bundle for
// `qps-ploc` (VS Code's pseudo-language) is every English message with its letters accented
// and marked ⟦…⟧, placeholders, icons, markup and links kept. Any English word of ours left
// on the screen in that window did not go through the bundle. Never shipped: made per run.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempDir } from './harness.mjs';

const ACCENTED = Object.fromEntries([...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, [...'àƀçďéƒĝĥîĵķľḿñöþǫŕšţûṽŵẋýžÀƁÇĎÉƑĜĤÎĴĶĽḾÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i]]));
/** What a translation keeps as it is. */
const KEPT = /(\{\d+\}|\$\([\w~-]+\)|<[^>]*>|\]\([^)]*\)|&\w+;|`[^`]*`|#[\w.]+#|https?:\/\/\S+|\n)/;

export function pseudo(text) {
  if (!text.trim()) return text;
  return `⟦${text.split(KEPT).map((part, i) => (i % 2 ? part : [...part].map((c) => ACCENTED[c] ?? c).join(''))).join('')}⟧`;
}

/** A copy of the built extension with the pseudo-locale's bundles; its folder. */
export function pseudoLocaleExtension() {
  const dir = tempDir('code-scanner-pseudo-');
  for (const d of ['dist', 'media', 'l10n']) cpSync(join(repoRoot, d), join(dir, d), { recursive: true });
  for (const f of ['package.json', 'package.nls.json']) cpSync(join(repoRoot, f), join(dir, f));
  const mark = (file) => Object.fromEntries(Object.entries(JSON.parse(readFileSync(join(repoRoot, file), 'utf8'))).map(([k, v]) => [k, pseudo(v)]));
  mkdirSync(join(dir, 'l10n'), { recursive: true });
  writeFileSync(join(dir, 'l10n', 'bundle.l10n.qps-ploc.json'), JSON.stringify(mark('l10n/bundle.l10n.json')));
  writeFileSync(join(dir, 'package.nls.qps-ploc.json'), JSON.stringify(mark('package.nls.json')));
  return dir;
}
