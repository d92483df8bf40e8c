// Client-side limits: each bad input is refused with a 'validation' ServiceError before
// any request goes out (the logger sees nothing, and no server is needed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient, type ChunkRequest } from '../../../src/core/api/client';
import { validateMetadata, LIMITS, checkArchiveName } from '../../../src/core/api/limits';
import { ServiceError, ClientValidationError } from '../../../src/core/api/errors';

function offlineClient() {
  const log: unknown[] = [];
  // Port 9 (discard) on loopback: nothing should ever be sent there.
  const client = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', token: 'tok-limits-0123456789', logger: (e) => log.push(e), maxRetries: 0 });
  return { client, log };
}

const chunk = (over: Partial<ChunkRequest> = {}): ChunkRequest => ({
  offset: 0,
  totalLength: 4,
  archiveName: 'project.zip',
  body: Buffer.from('abcd'),
  bodyLength: 4,
  fields: {},
  ...over,
});

test('validateMetadata: objects up to 16,384 UTF-8 bytes', () => {
  assert.equal(validateMetadata({}), '{}');
  assert.equal(validateMetadata({ a: 1, b: [true] }), '{"a":1,"b":[true]}');
  const overhead = '{"k":""}'.length;
  const atLimit = { k: 'x'.repeat(LIMITS.metadataBytes - overhead) };
  assert.equal(Buffer.byteLength(validateMetadata(atLimit)), LIMITS.metadataBytes);
  const bad: [unknown, RegExp][] = [
    [null, /JSON object \(got null\)/],
    [[1, 2], /JSON object \(got an array\)/],
    ['{"a":1}', /JSON object \(got string\)/],
    [42, /JSON object \(got number\)/],
    [undefined, /JSON object \(got undefined\)/],
    [{ k: 'x'.repeat(LIMITS.metadataBytes - overhead + 1) }, /16385 bytes.*at most 16384/],
    // 3-byte characters: fewer than 16,384 characters but more than 16,384 bytes.
    [{ k: '€'.repeat(6000) }, /bytes of JSON; the service accepts at most 16384/],
    [{ n: 1n }, /cannot be turned into JSON/],
  ];
  for (const [m, re] of bad) {
    assert.throws(() => validateMetadata(m), (e: unknown) => e instanceof ClientValidationError && re.test((e as Error).message), String(re));
  }
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.throws(() => validateMetadata(cyclic), /cannot be turned into JSON/);
});

test('archive names: only the spec extensions, safe characters', () => {
  for (const ok of ['project.zip', 'a.tar', 'report.json', 'x.fpr', 'out.sarif', 'r.xml', 'my project 2.zip']) {
    assert.doesNotThrow(() => checkArchiveName('t', ok), ok);
  }
  for (const bad of ['', 'project', 'project.tgz', 'project.tar.gz', 'project.ZIPX', '.zip', 'dir/project.zip', 'a"b.zip', 'проект.zip', 'a\r\nb.zip', 'a\\b.zip']) {
    assert.throws(() => checkArchiveName('t', bad), ClientValidationError, JSON.stringify(bad));
  }
});

test('every client limit is enforced before sending', async () => {
  const { client, log } = offlineClient();
  const cases: [string, () => Promise<unknown>, RegExp][] = [
    ['roles page 0', () => client.listRoles({ page: 0 }), /Page must be a whole number of at least 1/],
    ['roles page 1.5', () => client.listRoles({ page: 1.5 }), /Page must be/],
    ['roles page_size 0', () => client.listRoles({ pageSize: 0 }), /from 1 to 50/],
    ['roles page_size 51', () => client.listRoles({ pageSize: 51 }), /from 1 to 50 \(got 51\)/],
    ['all roles page_size 51', () => client.listAllRoles({ pageSize: 51 }), /from 1 to 50/],
    ['policies page_size 31', () => client.listPolicies({ pageSize: 31 }), /from 1 to 30 \(got 31\)/],
    ['policies page_size 0', () => client.listPolicies({ pageSize: 0 }), /from 1 to 30/],
    ['policies page -1', () => client.listPolicies({ page: -1 }), /at least 1/],
    ['all policies page_size 31', () => client.listAllPolicies({ pageSize: 31 }), /from 1 to 30/],
    ['policy type with comma', () => client.listPolicies({ policyTypes: ['a,b'] }), /must not contain a comma/],
    ['policy project empty', () => client.listPolicies({ project: ' ' }), /non-empty project name/],
    ['quality page_size 51', () => client.listQualityIssues('s1', { pageSize: 51 }), /from 1 to 50/],
    ['quality page 0', () => client.listQualityIssues('s1', { page: 0 }), /at least 1/],
    ['all quality page_size 51', () => client.listAllQualityIssues('s1', { pageSize: 51 }), /from 1 to 50/],
    ['quality empty scan id', () => client.listQualityIssues(''), /scan id is empty/],
    ['team id 0', () => client.addTeamMembers(0, [1]), /positive whole number/],
    ['team id -3', () => client.addTeamMembers(-3, [1]), /positive whole number/],
    ['team id 1.5', () => client.addTeamMembers(1.5, [1]), /positive whole number/],
    ['team id NaN', () => client.addTeamMembers(Number.NaN, [1]), /positive whole number/],
    ['member ids empty', () => client.addTeamMembers(1, []), /at least one member/],
    ['member id fractional', () => client.addTeamMembers(1, [1, 2.5]), /whole numbers \(got 2.5\)/],
    ['member id string', () => client.addTeamMembers(1, ['3' as unknown as number]), /whole numbers \(got "3"\)/],
    ['integration uuid', () => client.updateIntegration('not-a-uuid', { name: 'x' }), /must be a UUID/],
    ['integration no fields', () => client.updateIntegration('123e4567-e89b-12d3-a456-426614174000', {}), /Nothing to update/],
    ['integration empty name', () => client.updateIntegration('123e4567-e89b-12d3-a456-426614174000', { name: '' }), /non-empty/],
    ['integration bad allowlist', () => client.updateIntegration('123e4567-e89b-12d3-a456-426614174000', { orgAllowlist: [''] }), /allow-list/],
    ['start bad archive name', () => client.startTransfer('project.rar'), /must end in \.zip, \.tar, \.json, \.fpr, \.sarif, \.xml/],
    ['head empty transfer', () => client.readOffset(''), /transfer id is empty/],
    ['chunk bad archive name', () => client.sendChunk('t1', chunk({ archiveName: 'x.7z' })), /must end in/],
    ['chunk negative offset', () => client.sendChunk('t1', chunk({ offset: -1 })), /offset must be a whole number/],
    ['chunk past end', () => client.sendChunk('t1', chunk({ offset: 2 })), /goes past the end/],
    ['chunk length mismatch', () => client.sendChunk('t1', chunk({ bodyLength: 3, totalLength: 4 })), /holds 4 bytes but bodyLength says 3/],
    ['metadata array', () => client.sendChunk('t1', chunk({ fields: { metadata: [] as unknown as Record<string, unknown> } })), /JSON object \(got an array\)/],
    ['metadata too large', () => client.sendChunk('t1', chunk({ fields: { metadata: { k: 'x'.repeat(LIMITS.metadataBytes) } } })), /at most 16384 bytes/],
    ['partial without files', () => client.sendChunk('t1', chunk({ fields: { partial: { files: [] } } })), /at least one file/],
    ['partial file with comma', () => client.sendChunk('t1', chunk({ fields: { partial: { files: ['a,b.js'] } } })), /File "a,b.js" cannot be sent/],
    ['policy id with comma', () => client.sendChunk('t1', chunk({ fields: { targetPolicies: ['1,2'] } })), /Policy id "1,2"/],
  ];
  for (const [name, run, re] of cases) {
    await assert.rejects(run, (e: unknown) => {
      assert.ok(e instanceof ServiceError, name);
      assert.equal(e.kind, 'validation', name);
      assert.match(e.message, re, name);
      return true;
    });
  }
  assert.deepEqual(log, [], 'no request may have been attempted');
});

test('a token with a line break is refused before sending', async () => {
  const log: unknown[] = [];
  const client = new ServiceClient({ baseUrl: 'http://127.0.0.1:9', token: 'abc\ndef-secret', logger: (e) => log.push(e) });
  await assert.rejects(client.verify(), (e: unknown) => e instanceof ServiceError && e.kind === 'validation' && !e.message.includes('def-secret'));
  assert.deepEqual(log, []);
});

test('an already aborted signal gives kind aborted without sending', async () => {
  const { client, log } = offlineClient();
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(client.verify({ signal: ac.signal }), (e: unknown) => e instanceof ServiceError && e.kind === 'aborted');
  assert.deepEqual(log, []);
});

test('the client refuses a plain-http base URL to a remote host', () => {
  assert.throws(() => new ServiceClient({ baseUrl: 'http://scanner.example.com', token: 't' }), ClientValidationError);
});
