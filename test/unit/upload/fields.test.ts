import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ClientValidationError, type UploadFields } from '../../../src/core/api';
import type { BuiltArchive } from '../../../src/core/archive/zip';
import { uploadArchive } from '../../../src/core/upload/engine';
import { MemoryTransferStore } from '../../../src/core/upload/transferStore';
import { startReferenceService, type ReferenceService } from '../../service';
import { SMALL_CHUNK, demoClient, makeArchive, storedScan } from './fixtures';

let service: ReferenceService;
let archive: BuiltArchive;
let cleanup: () => Promise<void>;

before(async () => {
  service = await startReferenceService();
  ({ archive, cleanup } = await makeArchive());
});
after(async () => {
  await cleanup();
  await service.close();
});

async function upload(fields: UploadFields) {
  const out = await uploadArchive({ client: demoClient(service), archive, fields, store: new MemoryTransferStore(), chunkSize: SMALL_CHUNK, baseDelayMs: 5 });
  assert.equal(out.kind, 'complete');
  return storedScan(service, out.kind === 'complete' ? out.scanId : '').scan;
}

describe('upload form parts and headers', () => {
  test('a partial scan sends every part, partial_scan=true and files_to_scan', async () => {
    const policyIds = service.seed.policies.filter((p) => p.company === 1).slice(0, 2).map((p) => p.id);
    const scan = await upload({
      projectName: 'shop',
      branch: 'feature/x',
      repoUrl: 'https://git.example.invalid/acme/shop.git',
      sha: 'a'.repeat(40),
      dirty: true,
      metadata: { ticket: 'SEC-1', nested: { ok: true } },
      scanConfigs: ['base', 'secrets'],
      targetPolicies: policyIds,
      partial: { files: ['src/main.ts', 'src/util.py'] },
    });
    assert.deepEqual(scan.formParts, {
      project_name: 'shop',
      branch: 'feature/x',
      repo_url: 'https://git.example.invalid/acme/shop.git',
      sha: 'a'.repeat(40),
      dirty: 'true',
      metadata: JSON.stringify({ ticket: 'SEC-1', nested: { ok: true } }),
      scan_configs: 'base,secrets',
      target_policies: policyIds.join(','),
      partial_scan: 'true',
      files_to_scan: 'src/main.ts,src/util.py',
    });
    assert.equal(scan.partial, true);
    assert.deepEqual(scan.filesToScan, ['src/main.ts', 'src/util.py']);
    assert.deepEqual(scan.metadata, { ticket: 'SEC-1', nested: { ok: true } });
    assert.equal(scan.clientSource, 'vscode');
    assert.deepEqual(scan.uploadHeaders.name, archive.name);
    assert.equal(scan.uploadHeaders.length, String(archive.size));
  });

  const fullCases: { name: string; fields: UploadFields; absent: string[] }[] = [
    { name: 'a full scan sends no partial_scan or files_to_scan part', fields: { projectName: 'shop' }, absent: ['partial_scan', 'files_to_scan'] },
    { name: 'unknown values are left out rather than guessed', fields: {}, absent: ['partial_scan', 'files_to_scan', 'dirty', 'branch', 'sha', 'repo_url', 'metadata', 'scan_configs', 'target_policies'] },
  ];
  for (const c of fullCases) {
    test(c.name, async () => {
      const scan = await upload(c.fields);
      for (const part of c.absent) assert.ok(!(part in scan.formParts), `${part} must not be sent (got ${JSON.stringify(scan.formParts)})`);
      assert.equal(scan.partial, false);
    });
  }

  const refused: { name: string; metadata: Record<string, unknown> }[] = [
    { name: 'metadata over 16,384 bytes', metadata: { blob: 'x'.repeat(16_384) } },
    { name: 'metadata exactly one byte over the limit', metadata: { b: 'x'.repeat(16_384 - '{"b":""}'.length + 1) } },
  ];
  for (const c of refused) {
    test(`${c.name} is refused before any request`, async () => {
      const before = service.requests().length;
      await assert.rejects(
        uploadArchive({ client: demoClient(service), archive, fields: { metadata: c.metadata }, store: new MemoryTransferStore() }),
        (e: unknown) => e instanceof ClientValidationError && /16,?384/.test(e.message),
      );
      assert.equal(service.requests().length, before, 'the service saw a request');
    });
  }

  const badFields: { name: string; fields: UploadFields }[] = [
    { name: 'a partial scan without files', fields: { partial: { files: [] } } },
    { name: 'metadata that is not a JSON object', fields: { metadata: ['not', 'an', 'object'] as unknown as Record<string, unknown> } },
  ];
  for (const c of badFields) {
    test(`${c.name} is refused before any request`, async () => {
      const before = service.requests().length;
      await assert.rejects(uploadArchive({ client: demoClient(service), archive, fields: c.fields, store: new MemoryTransferStore() }), ClientValidationError);
      assert.equal(service.requests().length, before, 'the service saw a request');
    });
  }

  test('metadata exactly at the limit is accepted', async () => {
    const metadata = { b: 'x'.repeat(16_384 - '{"b":""}'.length) };
    assert.equal(JSON.stringify(metadata).length, 16_384);
    const scan = await upload({ metadata });
    assert.deepEqual(scan.metadata, metadata);
  });
});
