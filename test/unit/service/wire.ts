// Raw HTTP helpers for testing the reference service itself (no extension client in
// between, so these tests pin the service's own wire behaviour).
import { TarArchive, ZipArchive } from 'archiver';
import type { ReferenceService } from '../../service';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function call(
  svc: ReferenceService,
  method: string,
  path: string,
  opts: { token?: string | null; jwt?: string; headers?: Record<string, string>; body?: string | FormData; keyHeader?: 'SERVICE-TOKEN' | 'CORGEA-TOKEN' } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.jwt) headers.Authorization = `Bearer ${opts.jwt}`;
  else if (opts.token !== null) {
    // Both, as the extension sends a key (decisions.md), unless a test names one.
    for (const h of opts.keyHeader ? [opts.keyHeader] : ['SERVICE-TOKEN', 'CORGEA-TOKEN']) headers[h] = opts.token ?? svc.demoToken;
  }
  if (typeof opts.body === 'string') headers['Content-Type'] ??= 'application/json';
  // `/__admin/x` means the admin API under its secret prefix.
  const url = path.startsWith('/__admin') ? `${svc.adminUrl}${path.slice('/__admin'.length)}` : `${svc.baseUrl}${path}`;
  const res = await fetch(url, { method, headers, body: opts.body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The affinity cookie a transfer was started with (real answers set one), sent back with its chunks. */
const affinity = new Map<string, string>();

export async function startTransfer(svc: ReferenceService, name = 'project.zip', token?: string): Promise<string> {
  const form = new FormData();
  form.append('scan_type', 'blast');
  form.append('files', new Blob([]), name);
  const r = await call(svc, 'POST', '/start-scan', { body: form, token });
  if (r.status !== 200) throw new Error(`start failed: ${r.status} ${r.text}`);
  const id = r.json.transfer_id as string;
  const cookie = r.headers.get('set-cookie')?.split(';')[0];
  if (cookie) affinity.set(id, cookie);
  return id;
}

export function chunkForm(bytes: Buffer, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('chunk_data', new Blob([bytes]), 'chunk');
  return form;
}

export function sendChunk(
  svc: ReferenceService,
  transferId: string,
  c: { offset: number; length: number; bytes: Buffer; fields?: Record<string, string>; headers?: Record<string, string>; name?: string },
): Promise<Answer> {
  const cookie = affinity.get(transferId);
  return call(svc, 'PATCH', `/start-scan/${transferId}/`, {
    headers: { 'Upload-Offset': String(c.offset), 'Upload-Length': String(c.length), 'Upload-Name': c.name ?? 'project.zip', ...(cookie ? { cookie } : {}), ...c.headers },
    body: chunkForm(c.bytes, c.fields),
  });
}

/** Uploads the whole archive in chunks; returns the transfer id and the completing answer. */
export async function uploadOverWire(
  svc: ReferenceService,
  archive: Buffer,
  fields: Record<string, string> = {},
  opts: { chunkSize?: number; name?: string } = {},
): Promise<{ transferId: string; last: Answer }> {
  const name = opts.name ?? 'project.zip';
  const transferId = await startTransfer(svc, name);
  const size = opts.chunkSize ?? archive.length;
  let offset = 0;
  for (;;) {
    const bytes = archive.subarray(offset, offset + size);
    const r = await sendChunk(svc, transferId, { offset, length: archive.length, bytes, fields, name });
    if (r.status !== 200) throw new Error(`chunk at ${offset} failed: ${r.status} ${r.text}`);
    if (r.json.scan_id) return { transferId, last: r };
    offset = Number(r.headers.get('upload-offset'));
  }
}

/** A scan of `archive` uploaded whole under `project`: its id. */
export async function uploadedScanId(svc: ReferenceService, archive: Buffer, project: string): Promise<string> {
  const { last } = await uploadOverWire(svc, archive, { project_name: project });
  return last.json.scan_id as string;
}

export async function waitForScan(svc: ReferenceService, scanId: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const s = svc.scans().find((x) => x.id === scanId);
    if (s && s.status !== 'running') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`scan ${scanId} did not finish`);
}

export async function buildArchive(kind: 'zip' | 'tar', files: Record<string, string>): Promise<Buffer> {
  const archive = kind === 'zip' ? new ZipArchive({ zlib: { level: 6 } }) : new TarArchive();
  const chunks: Buffer[] = [];
  archive.on('data', (d: Buffer) => chunks.push(d));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve());
    archive.on('error', reject);
  });
  for (const [name, text] of Object.entries(files)) archive.append(Buffer.from(text), { name });
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

export const SAMPLE_FILES: Record<string, string> = {
  'src/app.js': "const apiKey = 'sk_live_abcdef123456';\nfunction run(input) {\n  console.log('running', input);\n  return eval(input);\n}\nmodule.exports = run;\n",
  'src/util.py': 'import json\n\n\ndef load(text):\n    try:\n        return json.loads(text)\n    except:\n        print("bad input")\n',
  'tests/test_app.py': 'password = "fixture-pass"\n',
  'docs/readme.md': '# eval(x) here is prose\n',
  'package.json': '{\n  "name": "sample",\n  "dependencies": {\n    "lodash": "^4.17.15",\n    "event-stream": "3.3.6",\n    "express": "^4.21.2"\n  }\n}\n',
};
