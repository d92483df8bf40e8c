/** "1 file", "2 files", "1,234 fixes": the count in en-US digits and the word in its number. */
export function plural(n: number, one: string, many = /(s|x|ch|sh)$/.test(one) ? `${one}es` : `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** "a", "a and b", "a, b and c". */
export function listWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
