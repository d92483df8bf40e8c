import { displayLanguage } from './l10n';

const formats = new Map<string, Intl.NumberFormat>();

/** `n` with exactly `digits` decimals, as the display language writes them ("3.4", "3,4"). */
function decimals(n: number, digits: number): string {
  const key = `${displayLanguage()}:${digits}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.NumberFormat(displayLanguage(), { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false })));
  return f.format(n);
}

/** "512 B", "3.4 KB", "1.2 MB", "1.05 GB" (the decimal mark of the display language). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${decimals(n / 1024, 1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${decimals(n / 1024 / 1024, 1)} MB`;
  return `${decimals(n / 1024 / 1024 / 1024, 2)} GB`;
}
