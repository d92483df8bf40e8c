import type { ZipWriterInternals } from './predeflate';

/** What compress-commons' own instance field does, as one function shared by all entries. */
function getExternalAttributes(this: { exattr: number }): number {
  return this.exattr;
}

/**
 * compress-commons declares `ZipArchiveEntry.getExternalAttributes` as an instance field
 * (`getExternalAttributes = function () {...}`), so every entry owns a function object of its
 * own, with its property store. The writer keeps every entry until the central directory is
 * written: measured in a heap snapshot, 20,000 entries held ~6.5 MB of these functions, and
 * being long-lived they also made V8 grow its young generation. Once an entry is appended
 * its function is swapped for one shared function that returns the same field.
 * Returns false when the writer does not have the expected shape (nothing is changed).
 */
export function shareEntryFunctions(writer: ZipWriterInternals | undefined): boolean {
  if (!writer) return false;
  const original = writer._afterAppend;
  writer._afterAppend = function (this: ZipWriterInternals, ae) {
    const own = ae as unknown as { getExternalAttributes?: unknown; exattr?: unknown };
    if (Object.hasOwn(own, 'getExternalAttributes') && typeof own.exattr === 'number') own.getExternalAttributes = getExternalAttributes;
    original.call(this, ae);
  };
  return true;
}
