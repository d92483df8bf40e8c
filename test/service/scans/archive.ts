// Reading uploaded archives: zip with yauzl, tar (optionally gzip-compressed) with tar-stream.
import { createReadStream } from 'node:fs';
import { open as openFile, readFile, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar-stream';
import yauzl from 'yauzl';

export type ArchiveKind = 'zip' | 'tar' | 'report';

export function archiveKind(name: string): ArchiveKind {
  const lower = name.toLowerCase();
  if (lower.endsWith('.zip')) return 'zip';
  if (lower.endsWith('.tar')) return 'tar';
  // .json, .sarif, .fpr, .xml: results of another scanner, not source archives.
  return 'report';
}

export interface ArchiveFile {
  path: string;
  size: number;
}

/** Called per file; return true to receive its content. */
export type WantContent = (f: ArchiveFile) => boolean;
export type OnFile = (f: ArchiveFile, content?: Buffer) => void | Promise<void>;

/** Walks every regular file of the archive in stored order. */
export async function walkArchive(path: string, kind: ArchiveKind, want: WantContent, onFile: OnFile): Promise<void> {
  if (kind === 'zip') return walkZip(path, want, onFile);
  if (kind === 'tar') return walkTar(path, want, onFile);
}

export async function listArchive(path: string, kind: ArchiveKind): Promise<string[]> {
  const out: string[] = [];
  await walkArchive(path, kind, () => false, (f) => { out.push(f.path); });
  return out;
}

/**
 * Archives up to this size are read from memory: yauzl reading a file makes one small read
 * per central-directory record, seconds for a repository of tens of thousands of files,
 * which would make completing an upload (when the file list is taken) slower than any real
 * service answers it.
 */
const IN_MEMORY_MAX = 256 * 1024 * 1024;

async function openZip(path: string): Promise<yauzl.ZipFile> {
  const options = { lazyEntries: true, autoClose: true, validateEntrySizes: true };
  const size = (await stat(path)).size;
  if (size <= IN_MEMORY_MAX) {
    const data = await readFile(path);
    return new Promise((resolve, reject) => yauzl.fromBuffer(data, options, (err, zip) => (err || !zip ? reject(err ?? new Error('cannot open zip')) : resolve(zip))));
  }
  return new Promise((resolve, reject) => yauzl.open(path, options, (err, zip) => (err || !zip ? reject(err ?? new Error('cannot open zip')) : resolve(zip))));
}

function walkZip(path: string, want: WantContent, onFile: OnFile): Promise<void> {
  return new Promise((resolve, reject) => {
    openZip(path).then((zip) => {
      let failed = false;
      const fail = (e: Error) => { if (!failed) { failed = true; zip.close(); reject(e); } };
      zip.on('error', fail);
      zip.on('end', () => { if (!failed) resolve(); });
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) { zip.readEntry(); return; }
        const f = { path: entry.fileName, size: entry.uncompressedSize };
        if (!want(f)) {
          Promise.resolve(onFile(f)).then(() => zip.readEntry(), fail);
          return;
        }
        zip.openReadStream(entry, (e2, stream) => {
          if (e2 || !stream) { fail(e2 ?? new Error('cannot read zip entry')); return; }
          const parts: Buffer[] = [];
          stream.on('data', (d: Buffer) => parts.push(d));
          stream.on('error', fail);
          stream.on('end', () => {
            Promise.resolve(onFile(f, Buffer.concat(parts))).then(() => zip.readEntry(), fail);
          });
        });
      });
      zip.readEntry();
    }, reject);
  });
}

async function isGzip(path: string): Promise<boolean> {
  const fh = await openFile(path, 'r');
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await fh.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

async function walkTar(path: string, want: WantContent, onFile: OnFile): Promise<void> {
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const isFile = header.type === 'file' || header.type === 'contiguous-file';
      const f = { path: header.name, size: header.size ?? 0 };
      if (!isFile || !want(f)) {
        stream.on('end', () => {
          if (!isFile) { next(); return; }
          Promise.resolve(onFile(f)).then(() => next(), reject);
        });
        stream.resume();
        return;
      }
      const parts: Buffer[] = [];
      stream.on('data', (d: unknown) => { parts.push(d as Buffer); });
      stream.on('end', () => { Promise.resolve(onFile(f, Buffer.concat(parts))).then(() => next(), reject); });
      stream.on('error', reject);
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  const source = createReadStream(path);
  const sink = extract as unknown as Writable;
  await Promise.all([
    (await isGzip(path)) ? pipeline(source, createGunzip(), sink) : pipeline(source, sink),
    done,
  ]);
}
