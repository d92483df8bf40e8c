import { randomBytes } from 'node:crypto';
import { createReadStream, promises as fs, renameSync, writeFileSync, unlinkSync } from 'node:fs';
import * as path from 'node:path';
import { l10n } from '../text/l10n';

/**
 * State too big for one JSON.stringify in the extension host (fifty thousand findings are
 * about 26 MB of JSON: 115 ms for the string alone, and the workspace Memento copies it
 * again over IPC) is kept as JSON Lines in a file: one small record per line, made and
 * parsed a slice at a time so the event loop breathes in between. The file is replaced
 * whole and atomically (a temporary file renamed over it), so a crash mid-write leaves the
 * previous state, never half of the new one.
 */

const SLICE_MS = 5;

/**
 * One record as one line. JSON.stringify leaves U+2028 and U+2029 raw, and the readline of
 * newer Node (24 here; 20 does not) ends a line at them: a finding's message with one read
 * back as two broken lines. Escaped, the line is the same JSON and one line to any reader.
 */
const lineOf = (record: unknown) => JSON.stringify(record).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`) + '\n';

const now = () => performance.now();
const breathe = () => new Promise<void>((r) => setImmediate(r));

function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Writes `records` one per line, yielding to the event loop every few milliseconds. The file
 * is replaced only if `replace()` still says so once every line is written (a synchronous
 * write of newer records may have replaced it meanwhile); else nothing changes.
 */
export async function writeJsonLines(file: string, records: Iterable<unknown>, replace: () => boolean = () => true): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = tempNameFor(file);
  const handle = await fs.open(temp, 'w', 0o600);
  try {
    let parts: string[] = [];
    let pending = 0;
    let sliceStart = now();
    for (const record of records) {
      const line = lineOf(record);
      parts.push(line);
      pending += line.length;
      if (pending > 1 << 20 || now() - sliceStart > SLICE_MS) {
        await handle.write(parts.join(''));
        parts = [];
        pending = 0;
        await breathe();
        sliceStart = now();
      }
    }
    if (parts.length) await handle.write(parts.join(''));
    await handle.sync();
  } catch (e) {
    await handle.close().catch(() => undefined);
    await fs.rm(temp, { force: true });
    throw e;
  }
  await handle.close();
  if (replace()) await fs.rename(temp, file);
  else await fs.rm(temp, { force: true });
}

/** The same file, written at once: for shutdown, when nothing else waits for the event loop. */
export function writeJsonLinesSync(file: string, records: Iterable<unknown>): void {
  const temp = tempNameFor(file);
  const lines: string[] = [];
  for (const record of records) lines.push(lineOf(record));
  try {
    writeFileSync(temp, lines.join(''), { mode: 0o600 });
    renameSync(temp, file);
  } catch (e) {
    try { unlinkSync(temp); } catch { /* never written */ }
    throw e;
  }
}

/**
 * Reads the records of a file written by writeJsonLines, yielding between slices.
 * Undefined when there is no file; a line that is not JSON throws, naming its number.
 */
export async function readJsonLines(file: string): Promise<unknown[] | undefined> {
  let stream;
  try {
    await fs.access(file);
    stream = createReadStream(file, { encoding: 'utf8' });
  } catch {
    return undefined;
  }
  const records: unknown[] = [];
  let lineNo = 0;
  let sliceStart = now();
  const take = (line: string) => {
    lineNo++;
    if (!line) return;
    try {
      records.push(JSON.parse(line));
    } catch {
      throw new Error(l10n.t('{0} line {1} is not JSON', path.basename(file), lineNo));
    }
  };
  // Lines end at '\n' only (a file written before U+2028 was escaped has it raw inside a
  // string); the stream's decoder keeps a character split between chunks whole.
  let rest = '';
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) take(line);
      if (now() - sliceStart > SLICE_MS) {
        await breathe();
        sliceStart = now();
      }
    }
    take(rest);
  } finally {
    stream.destroy();
  }
  return records;
}
