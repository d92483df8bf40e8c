// The extension's words in the user's language: one function for the editor layer and the
// core alike, reading the bundle VS Code loaded for the display language
// (l10n/bundle.l10n.<language>.json; English, the source, when there is none). The core
// never imports `vscode`, so it reads the bundle through @vscode/l10n, which VS Code's
// own convention provides for code that runs outside the extension host's API.
import * as base from '@vscode/l10n';

let language = 'en';

/** Called once at activation, before any word is made: the bundle VS Code loaded and its language. */
export function useBundle(contents: base.l10nJsonFormat | undefined, displayLanguage: string): void {
  language = displayLanguage || 'en';
  if (contents) base.config({ contents });
  numbers = undefined;
  pluralRules = undefined;
  lists = undefined;
}

/** The display language (BCP 47), for numbers, plurals, lists and dates. */
export function displayLanguage(): string {
  return language;
}

export const l10n = {
  /**
   * `message` in the user's language with `{0}`, `{1}`… replaced by `args`, each as text
   * (as a template literal would: an object is never read as named arguments).
   */
  t(message: string, ...args: unknown[]): string {
    return base.t(message, ...args.map((a) => String(a)));
  },
};

let numbers: Intl.NumberFormat | undefined;
let pluralRules: Intl.PluralRules | undefined;
let lists: Intl.ListFormat | undefined;

/** A number as the user's language writes it ("1,234", "1.234"). */
export function formatNumber(n: number): string {
  numbers ??= new Intl.NumberFormat(language);
  return numbers.format(n);
}

/**
 * `n` in the form of the sentence its language needs: `one` or `other`, each a translated
 * message with `{0}` for the number (l10n.t('{0} file'), l10n.t('{0} files')) and `{1}`…
 * for `args`.
 */
export function plural(n: number, one: string, other: string, ...args: unknown[]): string {
  pluralRules ??= new Intl.PluralRules(language);
  const values = [formatNumber(n), ...args.map((a) => String(a))];
  return (pluralRules.select(n) === 'one' ? one : other).replace(/\{(\d+)\}/g, (m, i: string) => values[Number(i)] ?? m);
}

/** "a", "a and b", "a, b and c", as the user's language joins them. */
export function listWords(items: readonly string[]): string {
  // English as it always read here (no serial comma); other languages by Intl.
  if (language === 'en' || language.startsWith('en-')) return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
  lists ??= new Intl.ListFormat(language, { type: 'conjunction' });
  return lists.format(items);
}
