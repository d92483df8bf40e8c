import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { buildMultipart, MultipartLengthError, type Part } from '../../../src/core/api/multipart';

async function collect(gen: AsyncGenerator<Uint8Array>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const b of gen) out.push(Buffer.from(b));
  return Buffer.concat(out);
}

/** Parses a body with busboy (the same library the reference service uses). */
function parse(contentType: string, body: Buffer): Promise<{ fields: Record<string, string>; files: Record<string, { filename: string; data: Buffer }> }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: Record<string, { filename: string; data: Buffer }> = {};
    const bb = busboy({ headers: { 'content-type': contentType } });
    bb.on('field', (name, value) => (fields[name] = value));
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => (files[name] = { filename: info.filename ?? "", data: Buffer.concat(chunks) }));
    });
    bb.on('close', () => resolve({ fields, files }));
    bb.on('error', reject);
    bb.end(body);
  });
}

test('multipart body: exact length, parts and file bytes survive a real parser', async () => {
  const fileBytes = Buffer.alloc(300_000);
  for (let i = 0; i < fileBytes.length; i++) fileBytes[i] = (i * 31) % 256;
  let opened = 0;
  const parts: Part[] = [
    { name: 'project_name', value: 'démo "quoted"\r\nline' },
    { name: 'metadata', value: '{"a":1}' },
    {
      name: 'chunk_data',
      filename: 'project.zip',
      body: () => {
        opened++;
        return Readable.from([fileBytes.subarray(0, 100_000), fileBytes.subarray(100_000)]);
      },
      length: fileBytes.length,
    },
    { name: 'files', filename: 'empty.zip', body: Buffer.alloc(0), length: 0 },
  ];
  const mp = buildMultipart(parts);
  assert.equal(opened, 0, 'the stream is opened only when the body is sent');
  let seen = 0;
  const body = await collect(mp.stream((n) => (seen += n)));
  assert.equal(opened, 1);
  assert.equal(body.length, mp.length);
  assert.equal(seen, mp.length);
  assert.match(mp.contentType, /^multipart\/form-data; boundary=/);
  const got = await parse(mp.contentType, body);
  assert.equal(got.fields.project_name, 'démo "quoted"\r\nline');
  assert.equal(got.fields.metadata, '{"a":1}');
  assert.equal(got.files.chunk_data.filename, 'project.zip');
  assert.ok(got.files.chunk_data.data.equals(fileBytes));
  assert.equal(got.files.files.filename, 'empty.zip');
  assert.equal(got.files.files.data.length, 0);
  // Streaming twice reopens the source (what a retry does).
  await collect(mp.stream());
  assert.equal(opened, 2);
});

test('a stream yielding fewer or more bytes than declared fails', async () => {
  for (const [declared, actual] of [[10, 9], [10, 11]]) {
    const mp = buildMultipart([{ name: 'chunk_data', filename: 'a.zip', body: () => Readable.from([Buffer.alloc(actual)]), length: declared }]);
    await assert.rejects(collect(mp.stream()), MultipartLengthError);
  }
  assert.throws(() => buildMultipart([{ name: 'c', filename: 'a.zip', body: Buffer.alloc(3), length: 4 }]), MultipartLengthError);
});

test('the boundary never occurs inside a text value', () => {
  const mp = buildMultipart([{ name: 'x', value: 'v' }]);
  assert.ok(mp.boundary.length >= 40);
  assert.notEqual(buildMultipart([{ name: 'x', value: 'v' }]).boundary, mp.boundary);
});
