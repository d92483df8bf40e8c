import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pager, type PageResult } from '../../../src/core/account/pager';

/** A server list paged `size` at a time; `list` can be changed between loads. */
function fakeServer(list: number[], size: number) {
  const calls: number[] = [];
  const fetchPage = async (page: number): Promise<PageResult<number>> => {
    calls.push(page);
    const totalPages = Math.max(1, Math.ceil(list.length / size));
    if (page > totalPages && list.length > 0) throw Object.assign(new Error('policy not found'), { kind: 'not-found' });
    return { items: list.slice((page - 1) * size, page * size), totalCount: list.length, totalPages };
  };
  return { calls, fetchPage };
}

const isPastEnd = (e: unknown) => (e as { kind?: string }).kind === 'not-found';

test('loads page by page until the last one', async () => {
  const s = fakeServer([1, 2, 3, 4, 5], 2);
  const p = new Pager({ fetchPage: s.fetchPage, keyOf: (n) => n, isPastEnd });
  assert.equal(p.started, false);
  assert.equal(p.hasMore, true);
  await p.loadNext();
  assert.deepEqual(p.items, [1, 2]);
  assert.equal(p.total, 5);
  assert.equal(p.hasMore, true);
  await p.loadNext();
  await p.loadNext();
  assert.deepEqual(p.items, [1, 2, 3, 4, 5]);
  assert.equal(p.hasMore, false);
  await p.loadNext();
  assert.deepEqual(s.calls, [1, 2, 3]);
});

test('concurrent loads share one request', async () => {
  const s = fakeServer([1, 2, 3], 2);
  const p = new Pager({ fetchPage: s.fetchPage, keyOf: (n) => n });
  await Promise.all([p.loadNext(), p.loadNext(), p.loadNext()]);
  assert.deepEqual(s.calls, [1]);
  assert.deepEqual(p.items, [1, 2]);
});

test('an item added on top between loads is not shown twice', async () => {
  const list = [5, 4, 3, 2, 1];
  const s = fakeServer(list, 2);
  const p = new Pager({ fetchPage: s.fetchPage, keyOf: (n) => n });
  await p.loadNext();
  list.unshift(6); // newest first: 4 moves onto page 2
  await p.loadAll();
  assert.deepEqual(p.items, [5, 4, 3, 2, 1]);
  assert.equal(p.total, 6);
});

test('a page past the end (list shrank) ends the list instead of failing', async () => {
  const list = [1, 2, 3];
  const s = fakeServer(list, 2);
  const p = new Pager({ fetchPage: s.fetchPage, keyOf: (n) => n, isPastEnd });
  await p.loadNext();
  list.pop();
  await p.loadNext();
  assert.deepEqual(p.items, [1, 2]);
  assert.equal(p.hasMore, false);
});

test('other errors propagate and the page can be retried', async () => {
  let fail = true;
  const p = new Pager<number>({
    fetchPage: async () => {
      if (fail) throw new Error('network down');
      return { items: [1], totalCount: 1, totalPages: 1 };
    },
    keyOf: (n) => n,
    isPastEnd,
  });
  await assert.rejects(p.loadNext(), /network down/);
  assert.equal(p.loading, false);
  fail = false;
  await p.loadNext();
  assert.deepEqual(p.items, [1]);
});

test('reset drops a page that arrives afterwards', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  let n = 0;
  const p = new Pager<number>({
    fetchPage: async () => {
      n++;
      if (n === 1) { await gate; return { items: [99], totalCount: 1, totalPages: 1 }; }
      return { items: [1, 2], totalCount: 2, totalPages: 1 };
    },
    keyOf: (x) => x,
  });
  const stale = p.loadNext();
  p.reset();
  await p.loadNext();
  release();
  await stale;
  assert.deepEqual(p.items, [1, 2]);
});

test('an empty list has nothing more to load', async () => {
  const s = fakeServer([], 2);
  const p = new Pager({ fetchPage: s.fetchPage, keyOf: (n) => n });
  await p.loadAll();
  assert.deepEqual(p.items, []);
  assert.equal(p.total, 0);
  assert.equal(p.hasMore, false);
});
