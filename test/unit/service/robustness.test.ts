// The reference service answers malformed input with a 4xx {error} and keeps running.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startReferenceService, type ReferenceService } from '../../service';
import { call, startTransfer } from './wire';

let svc: ReferenceService;
let transferId: string;
before(async () => {
  svc = await startReferenceService();
  transferId = await startTransfer(svc);
});
after(() => svc.close());

const MP = 'multipart/form-data; boundary=XyZ';

describe('reference service robustness', () => {
  const cases: { name: string; method: string; path: () => string; headers?: Record<string, string>; body?: string; status: number }[] = [
    { name: 'invalid percent-encoding in a path id', method: 'GET', path: () => '/scan/%E0%A4%A/issues/quality', status: 404 },
    { name: 'prototype key as scan id', method: 'GET', path: () => '/scan/__proto__/issues/quality', status: 404 },
    { name: 'prototype key as transfer id', method: 'PATCH', path: () => '/start-scan/constructor/', headers: { 'Content-Type': MP }, body: '--XyZ--\r\n', status: 404 },
    { name: 'prototype key as integration uuid', method: 'PATCH', path: () => '/integrations/pipelineprovider/__proto__', body: '{}', status: 404 },
    { name: 'JSON null body', method: 'POST', path: () => '/teams/1/members', body: 'null', status: 400 },
    { name: 'JSON array body', method: 'PATCH', path: () => '/integrations/pipelineprovider/7b0e5c1a-2f4d-4e8b-9a6c-1d2e3f4a5b6c', body: '[]', status: 400 },
    { name: 'JSON body over 1 MB', method: 'POST', path: () => '/teams/1/members', body: JSON.stringify({ member_ids: Array(600_000).fill(5) }), status: 413 },
    { name: 'negative Upload-Offset', method: 'PATCH', path: () => `/start-scan/${transferId}/`, headers: { 'Content-Type': MP, 'Upload-Offset': '-1', 'Upload-Length': '10' }, body: '--XyZ--\r\n', status: 400 },
    { name: 'Upload-Offset in exponent form', method: 'PATCH', path: () => `/start-scan/${transferId}/`, headers: { 'Content-Type': MP, 'Upload-Offset': '1e3', 'Upload-Length': '10' }, body: '--XyZ--\r\n', status: 400 },
    { name: 'Upload-Length beyond safe integers', method: 'PATCH', path: () => `/start-scan/${transferId}/`, headers: { 'Content-Type': MP, 'Upload-Offset': '0', 'Upload-Length': '99999999999999999999' }, body: '--XyZ--\r\n', status: 400 },
    { name: 'multipart without a boundary', method: 'PATCH', path: () => `/start-scan/${transferId}/`, headers: { 'Content-Type': 'multipart/form-data', 'Upload-Offset': '0', 'Upload-Length': '10' }, body: 'junk', status: 400 },
    { name: 'not multipart at all', method: 'PATCH', path: () => `/start-scan/${transferId}/`, headers: { 'Content-Type': 'application/octet-stream', 'Upload-Offset': '0', 'Upload-Length': '10' }, body: 'junk', status: 400 },
    { name: 'multipart body cut before the closing boundary', method: 'PATCH', path: () => `/start-scan/${transferId}/`, headers: { 'Content-Type': MP, 'Upload-Offset': '0', 'Upload-Length': '10' }, body: '--XyZ\r\nContent-Disposition: form-data; name="chunk_data"; filename="c"\r\n\r\nabc', status: 400 },
    { name: 'multipart part without headers', method: 'POST', path: () => '/start-scan?scan_type=blast', headers: { 'Content-Type': MP }, body: '--XyZ\r\n\r\nhello\r\n--XyZ--\r\n', status: 400 },
    { name: 'chunk_data sent as a text field', method: 'PATCH', path: () => `/start-scan/${transferId}/`, headers: { 'Content-Type': MP, 'Upload-Offset': '0', 'Upload-Length': '10' }, body: '--XyZ\r\nContent-Disposition: form-data; name="chunk_data"\r\n\r\nabc\r\n--XyZ--\r\n', status: 400 },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.status} {error}`, async () => {
      const r = await call(svc, c.method, c.path(), { headers: c.headers, body: c.body });
      assert.equal(r.status, c.status, r.text);
      assert.equal(typeof r.json?.error, 'string', r.text);
      assert.equal(svc.transferBytes(transferId)!.length, 0);
    });
  }

  it('still answers after all of the above', async () => {
    assert.equal((await call(svc, 'GET', '/verify')).status, 200);
  });
});
