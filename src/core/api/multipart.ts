// multipart/form-data bodies built as a stream with an exact Content-Length.
//
// Why not undici's FormData: a FormData file part must be a Blob/File. A Blob made from
// a Buffer keeps the whole chunk in memory, and a stream-backed one has no known size, so
// the request goes out chunked (no Content-Length) and the server can neither reject an
// oversized chunk up front nor report meaningful progress. Writing the few boundary and
// header lines ourselves keeps memory flat (file bytes are piped straight from the
// caller's stream) and gives an exact Content-Length; the stream is also re-created from
// a factory on every attempt, so a retry never replays a half-consumed stream.

import { randomBytes } from 'node:crypto';

export interface TextPart {
  name: string;
  value: string;
}

export interface FilePart {
  name: string;
  filename: string;
  contentType?: string;
  body: Buffer | (() => NodeJS.ReadableStream);
  /** Exact number of bytes the body yields; checked while streaming. */
  length: number;
}

export type Part = TextPart | FilePart;

export interface MultipartBody {
  contentType: string;
  boundary: string;
  /** Total byte length of the encoded body (the Content-Length). */
  length: number;
  /** Yields the encoded body; `onData` sees every piece as it goes out. */
  stream(onData?: (bytes: number) => void): AsyncGenerator<Uint8Array>;
  /**
   * Destroys any file stream still open and resolves once it is closed, so a cancelled
   * or failed request leaves no file handle behind (the caller may delete the file next).
   */
  release(): Promise<void>;
}

type Closable = NodeJS.ReadableStream & { destroy?: (e?: Error) => void; closed?: boolean; destroyed?: boolean };

function destroyStream(s: Closable): void {
  if (typeof s.destroy === 'function') s.destroy();
}

function whenClosed(s: Closable, capMs = 2000): Promise<void> {
  if (s.closed || typeof s.destroy !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, capMs);
    s.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Escaping of names in Content-Disposition as browsers do it (HTML form encoding). */
function escapeDispositionValue(s: string): string {
  return s.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

function isFilePart(p: Part): p is FilePart {
  return (p as FilePart).filename !== undefined;
}

export class MultipartLengthError extends Error {
  constructor(
    readonly partName: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`multipart part "${partName}" yielded ${actual > expected ? 'more than' : 'only'} ${actual} of ${expected} declared bytes`);
    this.name = 'MultipartLengthError';
  }
}

export function buildMultipart(parts: readonly Part[]): MultipartBody {
  let boundary = '';
  do {
    boundary = `----CodeScannerFormBoundary${randomBytes(16).toString('hex')}`;
  } while (parts.some((p) => !isFilePart(p) && p.value.includes(boundary)));

  const segments: ({ kind: 'bytes'; data: Buffer } | { kind: 'file'; part: FilePart })[] = [];
  let length = 0;
  const push = (data: Buffer) => {
    segments.push({ kind: 'bytes', data });
    length += data.length;
  };

  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeDispositionValue(p.name)}"`;
    if (isFilePart(p)) {
      head += `; filename="${escapeDispositionValue(p.filename)}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`;
      push(Buffer.from(head, 'utf8'));
      if (Buffer.isBuffer(p.body) && p.body.length !== p.length) throw new MultipartLengthError(p.name, p.length, p.body.length);
      segments.push({ kind: 'file', part: p });
      length += p.length;
      push(Buffer.from('\r\n', 'utf8'));
    } else {
      head += '\r\n\r\n';
      push(Buffer.from(head + p.value + '\r\n', 'utf8'));
    }
  }
  push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));

  const open = new Set<Closable>();

  async function* stream(onData?: (bytes: number) => void): AsyncGenerator<Uint8Array> {
    for (const seg of segments) {
      if (seg.kind === 'bytes') {
        onData?.(seg.data.length);
        yield seg.data;
        continue;
      }
      const { part } = seg;
      if (Buffer.isBuffer(part.body)) {
        if (part.body.length > 0) {
          onData?.(part.body.length);
          yield part.body;
        }
        continue;
      }
      const source = part.body() as Closable;
      open.add(source);
      let sent = 0;
      try {
        for await (const piece of source as AsyncIterable<Buffer | string>) {
          const buf = typeof piece === 'string' ? Buffer.from(piece) : piece;
          sent += buf.length;
          if (sent > part.length) throw new MultipartLengthError(part.name, part.length, sent);
          onData?.(buf.length);
          yield buf;
        }
        if (sent !== part.length) throw new MultipartLengthError(part.name, part.length, sent);
      } finally {
        open.delete(source);
        destroyStream(source);
      }
    }
  }

  async function release(): Promise<void> {
    const pending = [...open];
    for (const s of pending) destroyStream(s);
    await Promise.all(pending.map((s) => whenClosed(s)));
  }

  return { contentType: `multipart/form-data; boundary=${boundary}`, boundary, length, stream, release };
}
