// The event index's reads from WordPress: its pages of events, and the crawl that applies them in slices, resumable
// where it failed.

import type { Mapping } from '../mapping/schema.ts';
import { allSettled, eachPage, type ListPage } from '../wp/client.ts';
import type { WpPost } from '../wp/types.ts';
import { inSlices } from './compaction.ts';
import type { IndexClient } from './event-index-types.ts';
import { INDEX_STATUSES, indexQueryOf } from './facets.ts';
import type { IdTable } from './id-table.ts';
import type { UpstreamRow } from './sync.ts';

export /** Where a build is (kept when it fails, so the next one resumes there). */
interface CrawlState {
  page: number;
  /** The ids read (as keys). */
  seen: IdTable;
  /** The write sequence when the build began: events written since are not removed for being unseen. */
  seq0: number;
  /** The newest modified_gmt read (`''` before the first). */
  newest: string;
  ms: number;
}

/** What a crawl does with the pages it reads (the index's side of it). */
export interface CrawlSteps {
  readPage(page: number): Promise<ListPage<WpPost>>;
  /** Pages read at once after the first. */
  width: number;
  sliceMs: number;
  read(post: WpPost): void;
  /** Steps making room for the rest of a site of `total` events, run in slices once the first page tells it. */
  reserving(total: number): Array<() => void>;
  progress(read: number, total: number): void;
}

/**
 * Reads every page from `state.page` on, `width` at a time (the first alone: it tells the number of pages), applying
 * each page's posts in slices as it arrives. `state.page` moves past each page applied, so a failure resumes there.
 */
export async function crawlPages(state: CrawlState, steps: CrawlSteps): Promise<void> {
  let totalPages = Number.POSITIVE_INFINITY;
  let total = 0;
  while (state.page <= totalPages) {
    const pages: number[] = [];
    const width = state.page === 1 || totalPages === Number.POSITIVE_INFINITY ? 1 : steps.width;
    for (let p = state.page; p < state.page + width && p <= totalPages; p++) pages.push(p);
    // Settled, not Promise.all: a failed batch leaves none of its pages in flight for the resumed crawl to overlap.
    const results = await allSettled(pages.map((p) => steps.readPage(p)));
    for (const r of results) {
      totalPages = r.totalPages;
      await inSlices(r.items, steps.sliceMs, steps.read);
      // In slices as posts are applied: in one task, the tables of 100k events took up to 18 ms of CPU (fresh
      // memory); a step allocates one of the new columns (12 MB at 1M events).
      if (total === 0) await inSlices(steps.reserving(r.total), steps.sliceMs, (step) => step());
      total = r.total;
      state.page++;
    }
    steps.progress(state.seen.size, total);
    if (totalPages === 0) break;
  }
}

/** The index's reads from WordPress: its events as the service account reads them, `concurrency` pages at a time. */
export class UpstreamEvents {
  readonly #client: IndexClient;
  readonly #language: string;
  readonly #concurrency: number;
  readonly #path: string;
  readonly #query: Record<string, string>;

  constructor(client: IndexClient, mapping: Mapping, language: string, concurrency: number) {
    this.#client = client;
    this.#language = language;
    this.#concurrency = concurrency;
    this.#path = `/wp/v2/${mapping.event.restBase}`;
    this.#query = indexQueryOf(mapping);
  }

  /** Reads a query's pages (`concurrency` at a time) and hands each page to `apply` as it comes. */
  async eachPage(query: Record<string, string>, apply: (posts: WpPost[]) => Promise<void>): Promise<void> {
    await eachPage(
      (page) => this.readPage(page, query),
      this.#concurrency,
      (r) => apply(r.items),
    );
  }

  /** One page of 100 events as the service account reads them, with the index's query plus `query`. */
  readPage(page: number, query: Record<string, string> = {}): Promise<ListPage<WpPost>> {
    return this.#client.list<WpPost>({
      path: this.#path,
      query: { ...this.#query, ...query, per_page: 100, page },
      as: 'service',
      language: this.#language,
    });
  }

  crawl(
    query: Record<string, string | number>,
    onPage?: (done: number, total: number) => void,
  ): Promise<WpPost[]> {
    return this.#client.all<WpPost>(
      { path: this.#path, query: { ...this.#query, ...query }, as: 'service', language: this.#language },
      onPage,
      this.#concurrency,
    );
  }

  /** Every indexed event's id, status and modified_gmt upstream, in id order (what a reconciliation compares). */
  rows(): Promise<UpstreamRow[]> {
    return this.#client.all<UpstreamRow>(
      {
        path: this.#path,
        query: {
          status: INDEX_STATUSES.join(','),
          _fields: 'id,status,modified_gmt',
          orderby: 'id',
          order: 'asc',
        },
        as: 'service',
        language: this.#language,
      },
      undefined,
      this.#concurrency,
    );
  }
}
