import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorForStatus, isRetryable, operationLabel, parseRetryAfter, redact, ServiceError, ClientValidationError, type ServiceErrorKind } from '../../../src/core/api/errors';
import { LIST_ROUTES } from '../../../src/core/api/findingLists';

test('parseRetryAfter: seconds and HTTP dates', () => {
  const now = Date.parse('Sat, 21 Nov 2026 12:00:00 GMT');
  const cases: [string | undefined, number | undefined][] = [
    [undefined, undefined],
    ['', undefined],
    ['0', 0],
    ['7', 7000],
    [' 120 ', 120_000],
    ['1.5', 1500],
    ['Sat, 21 Nov 2026 12:00:30 GMT', 30_000],
    ['Sat, 21 Nov 2026 11:59:00 GMT', 0],
    ['soon', undefined],
    ['-5', undefined],
  ];
  for (const [v, want] of cases) assert.equal(parseRetryAfter(v, now), want, String(v));
});

test('errorForStatus tells every status apart', () => {
  const cases: [number, ServiceErrorKind, RegExp][] = [
    [400, 'bad-request', /refused the request while listing policies: nope/],
    [401, 'unauthorized', /^The API key was rejected \(missing, invalid or expired\)\. Sign in again\.$/],
    [403, 'forbidden', /Your account is not allowed to view the company policies\. The service says: nope\./],
    [404, 'not-found', /Not found while listing policies: nope/],
    [409, 'conflict', /different upload position/],
    [422, 'unprocessable', /could not process/],
    [429, 'rate-limited', /limiting requests/],
    [500, 'server', /HTTP 500/],
    [503, 'server', /HTTP 503/],
    [418, 'bad-response', /unexpected HTTP 418/],
    [302, 'bad-response', /redirect \(HTTP 302\).*Check the service URL setting/],
  ];
  for (const [status, kind, re] of cases) {
    const e = errorForStatus({ operation: 'listPolicies', status, serverMessage: 'nope' });
    assert.ok(e instanceof ServiceError);
    assert.equal(e.kind, kind, String(status));
    assert.equal(e.status, status);
    assert.equal(e.operation, 'listPolicies');
    assert.equal(e.serverMessage, 'nope');
    assert.match(e.message, re, String(status));
  }
});

test('errorForStatus: 429 carries retryAfterMs, 409 carries serverOffset', () => {
  const e429 = errorForStatus({ operation: 'sendChunk', status: 429, retryAfterHeader: '3' });
  assert.equal(e429.retryAfterMs, 3000);
  assert.match(e429.message, /Wait 3 s/);
  const e409 = errorForStatus({ operation: 'sendChunk', status: 409, uploadOffsetHeader: '4096' });
  assert.equal(e409.serverOffset, 4096);
  const e409b = errorForStatus({ operation: 'sendChunk', status: 409, uploadOffsetHeader: 'x' });
  assert.equal(e409b.serverOffset, undefined);
});

test('isRetryable: network, timeout, 5xx and 429 only', () => {
  const kinds: [ServiceErrorKind, boolean][] = [
    ['network', true],
    ['timeout', true],
    ['server', true],
    ['rate-limited', true],
    ['bad-request', false],
    ['unauthorized', false],
    ['forbidden', false],
    ['not-found', false],
    ['conflict', false],
    ['unprocessable', false],
    ['bad-response', false],
    ['validation', false],
    ['aborted', false],
  ];
  for (const [kind, want] of kinds) assert.equal(isRetryable(new ServiceError({ kind, operation: 'x', message: 'm' })), want, kind);
  assert.equal(isRetryable(new Error('plain')), false);
  assert.equal(isRetryable(new ClientValidationError('x', 'm')), false);
});

test('redact replaces every occurrence of each secret', () => {
  assert.equal(redact('a tok123 b tok123', ['tok123']), 'a *** b ***');
  assert.equal(redact('abc', ['']), 'abc');
});

test('every list of a scan and the CI gate have words in messages, not their operation\'s name', () => {
  for (const op of [...Object.values(LIST_ROUTES).map((r) => r.operation), 'checkBlockingRules']) {
    assert.notEqual(operationLabel(op), op, op);
  }
});
