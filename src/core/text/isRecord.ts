/** A plain object (not null, not an array): the first check on untyped input such as JSON read back or a command's arguments. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
