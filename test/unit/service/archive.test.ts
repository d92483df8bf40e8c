// Archive reading of the reference service: zip (yauzl), tar and gzip'd tar (tar-stream),
// file lists and contents, and refusal of unreadable archives.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { archiveKind, listArchive, walkArchive } from '../../service/scans/archive';
import { buildArchive } from './wire';

const dir = mkdtempSync(join(tmpdir(), 'svc-archive-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FILES: Record<string, string> = {
  'a.js': 'console.log(1);\n',
  'src/deep/b.py': 'print("b")\n',
  'empty.txt': '',
};

async function onDisk(name: string, bytes: Buffer): Promise<string> {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

describe('reference service archive reading', () => {
  it('recognises the archive kinds by name', () => {
    assert.deepEqual(['x.zip', 'x.TAR', 'r.sarif', 'r.json', 'r.fpr', 'r.xml'].map(archiveKind), ['zip', 'tar', 'report', 'report', 'report', 'report']);
  });

  const kinds: { name: string; make: () => Promise<Buffer>; kind: 'zip' | 'tar' }[] = [
    { name: 'zip', make: () => buildArchive('zip', FILES), kind: 'zip' },
    { name: 'tar', make: () => buildArchive('tar', FILES), kind: 'tar' },
    { name: 'gzip-compressed tar', make: async () => gzipSync(await buildArchive('tar', FILES)), kind: 'tar' },
  ];
  for (const k of kinds) {
    it(`${k.name}: lists every file and hands over the contents asked for`, async () => {
      const p = await onDisk(`t-${k.name.replace(/\W/g, '')}`, await k.make());
      assert.deepEqual((await listArchive(p, k.kind)).sort(), Object.keys(FILES).sort());
      const got: Record<string, string | undefined> = {};
      await walkArchive(p, k.kind, (f) => f.path.endsWith('.py') || f.path.endsWith('.js'), (f, content) => {
        got[f.path] = content?.toString('utf8');
      });
      assert.deepEqual(got, { 'a.js': FILES['a.js'], 'src/deep/b.py': FILES['src/deep/b.py'], 'empty.txt': undefined });
    });
  }

  it('a file that is not a zip is an error, not a hang or a crash', async () => {
    const p = await onDisk('bad.zip', Buffer.from('this is not a zip archive at all'));
    await assert.rejects(listArchive(p, 'zip'));
  });

  it('a truncated zip is an error', async () => {
    const full = await buildArchive('zip', FILES);
    const p = await onDisk('trunc.zip', full.subarray(0, full.length - 30));
    await assert.rejects(listArchive(p, 'zip'));
  });

  it('a reporting format (.sarif) has no file list', async () => {
    const p = await onDisk('r.sarif', Buffer.from('{"runs":[]}'));
    assert.deepEqual(await listArchive(p, 'report'), []);
  });
});
