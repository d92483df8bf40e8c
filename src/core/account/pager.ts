// Lazy, page-by-page loading of a server list for a tree view's "Load more" node.
// Lists are newest first, so an item created between two page loads shifts older items
// onto the next page: items already shown are skipped by key instead of shown twice.
import { ServiceError } from '../api/errors';

export interface PageResult<T> {
  items: T[];
  /** What the service says; either may be missing. */
  totalCount?: number;
  totalPages?: number;
  /** Without totalPages: whether the page was full, so another may follow. */
  mayHaveMore?: boolean;
}

export interface PagerOptions<T> {
  fetchPage(page: number): Promise<PageResult<T>>;
  keyOf(item: T): string | number;
  /** True for the error a server gives for a page past the end (the list shrank meanwhile). */
  isPastEnd?(err: unknown): boolean;
}

export class Pager<T> {
  private loadedItems: T[] = [];
  private keys = new Set<string | number>();
  private nextPage = 1;
  private totalPages: number | undefined;
  private totalCount: number | undefined;
  private inFlight: Promise<void> | undefined;
  // Bumped by reset(), so a page that arrives after a reset (e.g. a filter change) is dropped.
  private generation = 0;

  constructor(private readonly opts: PagerOptions<T>) {}

  get items(): readonly T[] { return this.loadedItems; }
  /** The server's count of matching items, once a page has been read. */
  get total(): number | undefined { return this.totalCount; }
  get started(): boolean { return this.totalPages !== undefined; }
  get hasMore(): boolean { return this.totalPages === undefined || this.nextPage <= this.totalPages; }
  get loading(): boolean { return this.inFlight !== undefined; }

  reset(): void {
    this.generation++;
    this.loadedItems = [];
    this.keys.clear();
    this.nextPage = 1;
    this.totalPages = undefined;
    this.totalCount = undefined;
    this.inFlight = undefined;
  }

  /** Loads the next page; concurrent calls share one request. */
  async loadNext(): Promise<void> {
    if (!this.hasMore) return;
    if (!this.inFlight) {
      const generation = this.generation;
      const p = this.fetchNext(generation).finally(() => {
        if (this.generation === generation) this.inFlight = undefined;
      });
      this.inFlight = p;
    }
    return this.inFlight;
  }

  async loadAll(): Promise<void> {
    while (this.hasMore) {
      const before = this.nextPage;
      const generation = this.generation;
      await this.loadNext();
      if (this.generation !== generation || this.nextPage === before) return;
    }
  }

  private async fetchNext(generation: number): Promise<void> {
    const page = this.nextPage;
    let result: PageResult<T>;
    try {
      result = await this.opts.fetchPage(page);
    } catch (err) {
      if (this.generation === generation && page > 1 && this.opts.isPastEnd?.(err)) {
        this.totalPages = page - 1;
        return;
      }
      throw err;
    }
    if (this.generation !== generation) return;
    for (const item of result.items) {
      const key = this.opts.keyOf(item);
      if (this.keys.has(key)) continue;
      this.keys.add(key);
      this.loadedItems.push(item);
    }
    this.totalCount = result.totalCount;
    this.totalPages = result.totalPages ?? (result.mayHaveMore ? Number.POSITIVE_INFINITY : page);
    this.nextPage = page + 1;
    // An empty page means the server has nothing more, whatever its page count said.
    if (result.items.length === 0) this.totalPages = Math.min(this.totalPages, page);
  }
}

/** The service answers a page past the end of a list with 404 (decisions.md, policies). */
export function isPageBeyondEnd(err: unknown): boolean {
  return err instanceof ServiceError && err.kind === 'not-found';
}
