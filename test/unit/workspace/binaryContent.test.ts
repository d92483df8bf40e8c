// Binary files by content, whatever their name: a NUL among the first 8,000 bytes (git's
// test). Packaging leaves them out with reason `binary` (small files read into a batch and
// big ones alike), and Upload Preview lists exactly the same files as left out.
import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { test } from 'node:test';
import { buildZip } from '../../../src/core/archive/zip';
import { BINARY_SNIFF_BYTES, isBinaryContent, leaveOutBinaryContent } from '../../../src/core/workspace/binaryContent';
import { selectWorkspaceFiles } from '../../../src/core/workspace/selectFiles';
import { readZip, tempDir, writeTree } from './helpers';

test('a NUL among the first 8,000 bytes is binary; text in any encoding without one is not', () => {
  assert.equal(isBinaryContent(Buffer.from('plain text\n')), false);
  assert.equal(isBinaryContent(Buffer.from('naïve café — 日本語\n', 'utf8')), false);
  assert.equal(isBinaryContent(Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x34])), true);
  const late = Buffer.concat([Buffer.alloc(BINARY_SNIFF_BYTES, 0x61), Buffer.from([0])]);
  assert.equal(isBinaryContent(late), false, 'only the start is looked at');
  assert.equal(isBinaryContent(Buffer.alloc(0)), false);
});

test('packaging leaves out binary content under any name, small or big; Upload Preview lists the same files', async () => {
  const root = await tempDir('binary-content-');
  try {
    const classFile = Buffer.concat([Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x34]), Buffer.alloc(200, 7)]);
    const bigBinary = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(2, 0), Buffer.alloc(600 * 1024, 0x41)]);
    const bigText = Buffer.from('const x = 1;\n'.repeat(50_000));
    await writeTree(root, {
      'src/app.js': 'console.log("hi");\n',
      'classes/Main': classFile,
      'fixtures/raw-input.txt': Buffer.from([0x68, 0x69, 0x00, 0x01]),
      'tools/runner': bigBinary,
      'data/big.js': bigText,
      'empty.txt': '',
    });
    const sel = await selectWorkspaceFiles(root);
    assert.deepEqual([...sel.files].map((f) => f.path).sort(), ['classes/Main', 'data/big.js', 'empty.txt', 'fixtures/raw-input.txt', 'src/app.js', 'tools/runner'], 'their names say nothing: selection keeps them');
    const zip = await buildZip(sel, { workers: 1 });
    try {
      const binary = ['classes/Main', 'fixtures/raw-input.txt', 'tools/runner'];
      assert.deepEqual(zip.skipped.filter((s) => s.reason === 'binary').map((s) => s.path).sort(), binary);
      const entries = (await readZip(zip.path)).map((e) => e.name).sort();
      assert.deepEqual(entries, ['data/big.js', 'empty.txt', 'src/app.js']);
      const preview = await leaveOutBinaryContent(sel);
      assert.deepEqual(preview.files.map((f) => f.path).sort(), entries, 'the preview shows what the archive holds');
      assert.deepEqual(preview.skipped.filter((s) => s.reason === 'binary').map((s) => s.path).sort(), binary);
      assert.equal(preview.totalBytes, bigText.length + Buffer.byteLength('console.log("hi");\n'));
    } finally {
      await fsp.rm(zip.path, { force: true });
    }
  } finally {
    await fsp.rm(root, { recursive: true, force: true });
  }
});
