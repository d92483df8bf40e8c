// Reading a list page by page, as the spec pages roles, policies and a scan's issues.
import { badResponse } from './decode';
import { ServiceError } from './errors';
import type { Call } from './transport';
import { l10n } from '../text/l10n';

/** Pages of a list fetched at the same time once the first page says how many there are. */
const PAGE_CONCURRENCY = 4;

/**
 * Every page of a list, until the last: the page the service names as last, or, when it
 * names none, a page with fewer records than asked for. The first, then the rest with up
 * to PAGE_CONCURRENCY requests at a time when the first page says how many there are (one
 * request after another otherwise). `enough` may end it after the first page (nothing
 * changed since last time).
 */
export async function collectPages<T>(
  endpoint: string,
  operation: string,
  pageSize: number,
  maxPages: number,
  fetchPage: (page: number) => Promise<{ items: T[]; read: number; totalPages: number | undefined }>,
  enough?: (first: { items: T[]; totalPages: number | undefined }) => boolean,
): Promise<{ items: T[]; stoppedEarly?: boolean }> {
  const tooMany = () => new ServiceError({
    kind: 'bad-response',
    operation,
    message: l10n.t('{0} returned an unexpected response: it was still announcing more pages after {1} pages. Stopped reading.', endpoint, maxPages),
  });
  const first = await fetchPage(1);
  if (enough?.(first)) return { items: first.items, stoppedEarly: true };
  const items: T[] = [...first.items];
  if (first.read === 0) return { items };
  if (first.totalPages !== undefined) {
    if (first.totalPages > maxPages) throw tooMany();
    const rest = Array.from({ length: Math.max(0, first.totalPages - 1) }, (_, i) => i + 2);
    const pages: { items: T[]; read: number; totalPages: number | undefined }[] = new Array(rest.length);
    let next = 0;
    const worker = async () => {
      while (next < rest.length) {
        const i = next++;
        pages[i] = await fetchPage(rest[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PAGE_CONCURRENCY, rest.length) }, worker));
    for (const p of pages) items.push(...p.items);
    // The list grew while it was read (a running scan): the last page announces more.
    const last = pages.at(-1);
    if (!last || last.read === 0 || last.totalPages === undefined || last.totalPages <= first.totalPages) return { items };
  } else if (first.read < pageSize) {
    return { items };
  }
  for (let page = (first.totalPages ?? 1) + 1; ; page++) {
    if (page > maxPages) throw tooMany();
    const r = await fetchPage(page);
    items.push(...r.items);
    // An empty page before the announced end means the list shrank meanwhile: done.
    if (r.read === 0) return { items };
    if (r.totalPages !== undefined ? page >= r.totalPages : r.read < pageSize) return { items };
  }
}

/** A page holding more records than asked for is not the answer asked for: refused, not read. */
export function checkPageLength(call: Call, got: number, asked: number): void {
  if (got > asked) throw badResponse(call, l10n.t('a page held {0} records where at most {1} were asked for; reading stopped.', got, asked));
}

