/**
 * Compares names as a person reads them ("file2" before "file10"), with one collator for
 * every comparison: `localeCompare` costs several times more per call, and a tree of 50,000
 * findings sorts them all. Made at the first comparison, not while the extension loads
 * (a collator's set-up is a few milliseconds of the host's thread).
 */
let collator: Intl.Collator | undefined;

export function compareNames(a: string, b: string): number {
  return (collator ??= new Intl.Collator(undefined, { numeric: true })).compare(a, b);
}
