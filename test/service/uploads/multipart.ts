// multipart/form-data parsing with busboy: fields in memory, file parts streamed to disk
// (or only counted), so a chunk of any size never sits in memory.
import busboy from 'busboy';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { HttpError, drain } from '../http';

export interface FilePart {
  name: string;
  filename: string;
  bytes: number;
  /** Where the bytes were written; undefined when they were only counted. */
  path?: string;
}

export interface ParsedForm {
  fields: Record<string, string>;
  files: FilePart[];
}

export interface FileTarget {
  path: string;
  /** Write at this position of an existing file (flags r+) instead of creating the file. */
  start?: number;
}

export interface MultipartOptions {
  /** Where a file part's bytes go, or null to count and drop them. */
  fileTarget(name: string, filename: string | undefined): FileTarget | null;
  maxFiles: number;
}

/** Body stream failed (client went away or a reset fault): nothing may be answered or committed. */
export class BodyAbortedError extends Error {}

const FIELD_LIMIT = 1024 * 1024;

export function parseMultipart(headers: IncomingHttpHeaders, body: Readable, opts: MultipartOptions): Promise<ParsedForm> {
  // A body that already failed (connection dropped before parsing began) emits nothing more.
  if (body.destroyed) return Promise.reject(new BodyAbortedError('request body aborted'));
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers, limits: { fieldSize: FIELD_LIMIT, fields: 100, files: opts.maxFiles, parts: 120 } });
  } catch (e) {
    return drain(body).then(() => {
      throw new HttpError(400, `request must be multipart/form-data (${(e as Error).message})`);
    });
  }
  return new Promise<ParsedForm>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: FilePart[] = [];
    const writers: WriteStream[] = [];
    const writersClosed: Promise<void>[] = [];
    const pending: Promise<void>[] = [];
    let problem: HttpError | undefined;
    let settled = false;

    const settle = (err?: Error) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else if (problem) reject(problem);
      else resolve({ fields, files });
    };
    const note = (e: HttpError) => { problem ??= e; };

    body.once('error', () => {
      body.unpipe(bb);
      bb.destroy();
      for (const w of writers) w.destroy();
      // Wait until the temp files are closed so the caller's cleanup really removes them.
      void Promise.all(writersClosed).then(() => settle(new BodyAbortedError('request body aborted')));
    });

    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) note(new HttpError(400, `form part ${name} is larger than ${FIELD_LIMIT} bytes`));
      else fields[name] = value;
    });
    bb.on('file', (name, stream, info) => {
      const target = problem ? null : opts.fileTarget(name, info.filename);
      const part: FilePart = { name, filename: info.filename ?? '', bytes: 0, path: target?.path };
      files.push(part);
      stream.on('data', (d: Buffer) => { part.bytes += d.length; });
      if (target) {
        const w = target.start === undefined
          ? createWriteStream(target.path)
          : createWriteStream(target.path, { flags: 'r+', start: target.start });
        // busboy destroys the part stream with an error when the body ends early (client
        // cancelled, form cut short); pipe() would then leave the file open forever.
        stream.on('error', () => w.destroy());
        writers.push(w);
        writersClosed.push(new Promise<void>((res) => w.once('close', () => res())));
        pending.push(new Promise<void>((res) => {
          w.once('finish', () => res());
          w.once('error', (e) => { note(new HttpError(500, `could not store upload: ${e.message}`)); res(); });
          w.once('close', () => res());
        }));
        stream.pipe(w);
      } else {
        stream.on('error', () => undefined);
        stream.resume();
      }
    });
    const tooMany = () => note(new HttpError(400, 'too many form parts'));
    bb.on('filesLimit', tooMany);
    bb.on('fieldsLimit', tooMany);
    bb.on('partsLimit', tooMany);
    bb.on('error', (e: Error) => {
      body.unpipe(bb);
      note(new HttpError(400, `malformed multipart body: ${e.message}`));
      for (const w of writers) if (!w.writableFinished) w.destroy();
      void drain(body).then(() => Promise.all(pending)).then(() => settle());
    });
    bb.on('close', () => {
      void Promise.all(pending).then(() => settle());
    });
    body.pipe(bb);
  });
}
