// The event index of one language: every event's facets in columns (src/index/columns/), built by a crawl or from a
// snapshot, kept fresh by writes, polls and reconciliation, and compacted in the background.

import { linkTags } from '../cache/links.ts';
import { softChange } from '../cache/soft.ts';
import type { Mapping } from '../mapping/schema.ts';
import { allSettled, eachPage, type WpClient } from '../wp/client.ts';
import type { WpPost } from '../wp/types.ts';
import { type ColumnsOptions, EventColumns } from './columns/index.ts';
import type { IndexedEvent, RowBytes, Rows, StoredEvent } from './columns/rows.ts';
import { facetsOf, INDEX_STATUSES, indexQueryOf } from './facets.ts';
import { IdTable } from './id-table.ts';
import { type BuildProgress, buildProgress, type IndexLogger, stderrLogger } from './progress.ts';
import type { IndexQuery, IndexResult } from './query.ts';
import { Periodic } from './schedule.ts';
import { modifiedAfter, newerStamp, nextSince, reconcilePlan, type UpstreamRow } from './sync.ts';

/** The part of the WordPress client the index uses (tests pass a stub). */
export type IndexClient = Pick<WpClient, 'all' | 'list' | 'request'>;

export interface EventIndexOptions {
  client: IndexClient;
  mapping: Mapping;
  language: string;
  logger?: IndexLogger;
  /**
   * How far before the newest `modified_gmt` seen the next poll starts: covers saves within the same second and
   * transactions that commit late. The duration of the previous crawl is added on top.
   */
  overlapMs?: number;
  /** Pages of 100 the crawl (and the reconciliation) read from WordPress at once. Default 2. */
  crawlConcurrency?: number;
  /**
   * Ids a poll, refetch or reconciliation found changed or gone upstream (not writes through the gateway), with the
   * `links:*` tags of the linked lists those changes alter (src/cache/links.ts), and whether they took nothing out
   * of public view (src/cache/soft.ts: their cached answers may drop softly).
   */
  onChange?: (ids: number[], links: string[], soft: boolean) => void;
  /**
   * Tests: the columns' block size and plan (see {@link ColumnsOptions}), the compaction's pace (`compactRows`
   * copied between two looks at the clock, `compactMs` of copying before it yields; 0: after every `compactRows`),
   * and `sliceMs` of applying crawled or polled posts before yielding (0: after every post). Small values reach,
   * with a few events, the block splits and the interleavings a large site has.
   */
  tuning?: { columns?: ColumnsOptions; compactRows?: number; compactMs?: number; sliceMs?: number };
}

/** What an index needs to resume without a crawl (kept in Redis by src/index/snapshot.ts). */
export interface IndexSnapshot {
  language: string;
  since: number | null;
  builtAt: string;
  size: number;
  /** Every event as stored, in (start, id) order, `n` at a time (a consistent view, read over many ticks). */
  batches(n: number): Iterable<StoredEvent[]>;
  /** The same events as rows of the columns, `n` at a time (what a save encodes, without decoding them). */
  runs(n: number): Iterable<{ rows: Rows; list: Int32Array }>;
}

/** Loading a snapshot in batches (over many ticks); abandoned unless finished, leaving the index empty. */
export interface Restoring {
  add(batch: readonly StoredEvent[]): void;
  /** Adds one event read in place from a snapshot's bytes (the next in order; no record is built). */
  addBytes(row: RowBytes): void;
  /** Makes room for `rows` more events at once (a load that knows its size copies no column as it grows). */
  reserve(rows: number): void;
  finish(since: number | null, builtAt: string): void;
  abandonUnlessFinished(): void;
}

export interface ReconcileResult {
  removed: number;
  refetched: number;
}

/** Replaced rows tolerated before a compaction (and at least a quarter as many as live ones). */
const COMPACT_MIN_DEAD = 4096;
/** Rows a compaction copies between two looks at the clock (250 took about as long as a whole slice). */
const COMPACT_SLICE = 64;

const tick = () => new Promise((r) => setImmediate(r));

/**
 * Longest run of work between two yields to the event loop while applying crawled posts or compacting. 1 ms (5, then
 * 2 before): the jobs' slices queued in one turn of the loop run back to back (a bulk poll's slice, the compaction's,
 * and the word posting: 5 + 5 + 4 + 4 ms of main-thread CPU in one turn at 100k events, 23 ms with a page's parse,
 * when they were 5 and 4 ms), and a turn may also hold a collection of 7–12 ms; a yield costs microseconds.
 */
const SLICE_MS = 1;

/** Calls `fn` on each item, yielding to the event loop every `ms` (a page of posts is tens of ms of work). */
async function inSlices<T>(items: Iterable<T>, ms: number, fn: (item: T) => void): Promise<void> {
  let t0 = performance.now();
  for (const item of items) {
    fn(item);
    if (performance.now() - t0 >= ms) {
      await tick();
      t0 = performance.now();
    }
  }
}

/**
 * The ids changed while a compaction copies rows: in the order they changed (`ids`, copied from `at` on), each once
 * until copied (`seen`). Typed tables, not a Set: a poll that changes every event of a large site would rehash a Set
 * of a million ids in one task as it doubled.
 */
interface Touched {
  seen: IdTable;
  ids: number[];
  at: number;
}

/** Where a build is (kept when it fails, so the next one resumes there). */
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

const nowGmt = (): string => new Date().toISOString().slice(0, 19).replace('T', ' ');

export class EventIndex {
  readonly language: string;
  readonly #client: IndexClient;
  readonly #mapping: Mapping;
  readonly #logger: IndexLogger;
  readonly #overlapMs: number;
  readonly #path: string;
  readonly #query: Record<string, string>;

  readonly #tuning: { columns: ColumnsOptions; compactRows: number; compactMs: number; sliceMs: number };
  #columns: EventColumns;
  /** The ids changed since the compaction under way began, and its end. */
  #compaction: { touched: Touched; done: Promise<void> } | null = null;
  /** Write sequence number of each id's last change, so a crawl never drops what was written while it ran. */
  readonly #written = new IdTable();
  #seq = 0;
  /** Ids removed through the gateway, with the UTC time of removal: older copies from a crawl are ignored. */
  readonly #tombstones = new Map<number, string>();
  /** Epoch ms the next poll asks `modified_after` from; null until a crawl saw a post. */
  #since: number | null = null;

  readonly #concurrency: number;
  /** Where a failed crawl stopped: the next build goes on from there instead of starting over. */
  #resume: CrawlState | null = null;
  #builtAt: Date | null = null;
  #buildMs: number | null = null;
  #lastRefreshAt: Date | null = null;
  #building: Promise<void> | null = null;
  #refreshing: Promise<number> | null = null;
  #reconciling: Promise<ReconcileResult> | null = null;
  readonly #periodic: { refresh: Periodic; reconcile: Periodic };
  readonly #onChange: (ids: number[], links: string[], soft: boolean) => void;
  /** A change applied since the last `onChange` took an event out of public view. */
  #hid = false;
  /** `links:*` tags of the changes applied since the last `onChange`. */
  readonly #links = new Set<string>();

  constructor(options: EventIndexOptions) {
    this.language = options.language;
    this.#client = options.client;
    this.#mapping = options.mapping;
    this.#logger = options.logger ?? stderrLogger;
    this.#overlapMs = options.overlapMs ?? 10_000;
    this.#concurrency = Math.max(1, options.crawlConcurrency ?? 2);
    this.#path = `/wp/v2/${options.mapping.event.restBase}`;
    this.#query = indexQueryOf(options.mapping);
    this.#onChange = options.onChange ?? (() => {});
    const t = options.tuning ?? {};
    this.#tuning = {
      columns: t.columns ?? {},
      compactRows: t.compactRows ?? COMPACT_SLICE,
      compactMs: t.compactMs ?? SLICE_MS,
      sliceMs: t.sliceMs ?? SLICE_MS,
    };
    this.#columns = this.#newColumns();
    const context = { language: this.language };
    this.#periodic = {
      refresh: new Periodic('Event index refresh', () => this.refresh(), this.#logger, context),
      reconcile: new Periodic('Event index reconcile', () => this.reconcile(), this.#logger, context),
    };
  }

  /** The events and poll position, for a new instance to warm from instead of crawling. */
  snapshot(): IndexSnapshot | null {
    if (!this.#builtAt) return null;
    const columns = this.#columns;
    return {
      language: this.language,
      since: this.#since,
      builtAt: this.#builtAt.toISOString(),
      size: columns.size,
      batches: (n) => columns.batches(n),
      runs: (n) => columns.runs(n),
    };
  }

  /** Loads a snapshot as if built then; a `refresh()` afterwards catches up with what changed since. */
  restore(s: IndexSnapshot): void {
    const r = this.restoring();
    for (const batch of s.batches(1000)) r.add(batch);
    r.finish(s.since, s.builtAt);
  }

  /** Loads a snapshot into this (empty) index batch by batch. */
  restoring(): Restoring {
    let finished = false;
    // Search postings are built after the load, so the index answers sooner (searches read the text meanwhile).
    this.#columns.pauseWords(true);
    return {
      add: (batch) => {
        for (const f of batch) this.#set(f, true);
      },
      addBytes: (row) => {
        this.#columns.setBytes(row, true);
        this.#setDone(row.id);
      },
      reserve: (rows) => this.#reserve(rows),
      finish: (since, builtAt) => {
        finished = true;
        this.#columns.pauseWords(false);
        this.#columns.warmWhenPosted();
        this.#since = since;
        this.#builtAt = this.#lastRefreshAt = new Date(builtAt);
      },
      abandonUnlessFinished: () => {
        if (finished) return;
        this.#columns.pauseWords(false);
        this.#columns = this.#newColumns();
        this.#written.clear();
      },
    };
  }

  /** Re-reads some posts now (a change notification): applies what changed, drops what is gone upstream. */
  async refetch(ids: number[]): Promise<number[]> {
    const changed: number[] = [];
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      const posts = await this.#crawl({ include: chunk.join(',') });
      const seen = new Set(posts.map((p) => p.id));
      for (const post of posts) if (this.#apply(post)) changed.push(post.id);
      for (const id of chunk) {
        if (!seen.has(id) && this.#columns.has(id)) {
          this.#gone(id);
          changed.push(id);
        }
      }
    }
    if (changed.length) this.#changedUpstream(changed);
    return changed;
  }

  get size(): number {
    return this.#columns.size;
  }
  /** Rows of replaced or removed events not yet compacted away. */
  get deadRows(): number {
    return this.#columns.dead;
  }

  /** Events whose words the background has not posted for search yet. */
  get pendingWords(): number {
    return this.#columns.pendingWords;
  }
  /** Whether the background is making the most common searches ahead (after a load or a crawl). */
  get warming(): boolean {
    return this.#columns.warming;
  }
  /** How many such warm-ups the current columns began. */
  get warmUps(): number {
    return this.#columns.warmUps;
  }
  get builtAt(): Date | null {
    return this.#builtAt;
  }
  /** How long the last full crawl took (null until one ran: an index restored from a snapshot has none). */
  get buildMs(): number | null {
    return this.#buildMs;
  }
  get lastRefreshAt(): Date | null {
    return this.#lastRefreshAt;
  }
  /** Whether the last `modified_after` refresh or reconciliation failed (WordPress unreachable or refusing). */
  get failing(): { refresh: boolean; reconcile: boolean } {
    return { refresh: this.#periodic.refresh.failing, reconcile: this.#periodic.reconcile.failing };
  }

  get(id: number): IndexedEvent | undefined {
    return this.#columns.get(id);
  }

  bySlug(slug: string): IndexedEvent | undefined {
    const id = this.#columns.idOfSlug(slug);
    return id === undefined ? undefined : this.#columns.get(id);
  }

  query(q: IndexQuery): IndexResult {
    return this.#columns.query(q);
  }

  /** The venue (or organizer) ids the events of a query link to, without reading the events one by one. */
  linkedTo(kind: 'venue' | 'organizer', q: IndexQuery, except?: ReadonlySet<number>): Set<number> {
    const { ids } = this.#columns.query({ ...q, page: 1, perPage: Number.MAX_SAFE_INTEGER });
    return this.#columns.linkedOf(kind, except?.size ? ids.filter((id) => !except.has(id)) : ids);
  }

  /** A post written through the gateway (create, update, trash): indexed at once, whatever a crawl holds. */
  upsert(post: WpPost): IndexedEvent {
    const f = facetsOf(post, this.#mapping);
    this.#tombstones.delete(f.id);
    this.#set(f);
    return f;
  }

  /** A post deleted through the gateway: dropped at once, and kept out unless it changes upstream later. */
  remove(id: number): void {
    this.#tombstones.set(id, nowGmt());
    this.#delete(id);
  }

  /** Crawls every event (4 pages in parallel). Concurrent calls share one crawl. */
  build(progress: BuildProgress = buildProgress(this.language, this.#logger)): Promise<void> {
    this.#building ??= this.#build(progress).finally(() => {
      this.#building = null;
    });
    return this.#building;
  }

  /** Applies what changed upstream since the last crawl; resolves to how many events changed. Coalesced. */
  refresh(): Promise<number> {
    if (this.#building) return this.#building.then(() => 0);
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = null;
    });
    return this.#refreshing;
  }

  /** Compares the index with the ids upstream: drops hard deletes, fetches what is missing or out of date. */
  reconcile(): Promise<ReconcileResult> {
    if (this.#building) return this.#building.then(() => ({ removed: 0, refetched: 0 }));
    this.#reconciling ??= this.#reconcile().finally(() => {
      this.#reconciling = null;
    });
    return this.#reconciling;
  }

  /** Polls `refresh` every `intervalMs` and `reconcile` every `reconcileMs`, on timers that do not hold the process. */
  start(intervalMs = 5_000, reconcileMs = 300_000): void {
    this.#periodic.refresh.start(intervalMs);
    this.#periodic.reconcile.start(reconcileMs);
  }

  stop(): void {
    this.#periodic.refresh.stop();
    this.#periodic.reconcile.stop();
  }

  /** Reads a query's pages (`#concurrency` at a time) and hands each page to `apply` as it comes. */
  async #eachPage(query: Record<string, string>, apply: (posts: WpPost[]) => Promise<void>): Promise<void> {
    await eachPage(
      (page) => this.#readPage(page, query),
      this.#concurrency,
      (r) => apply(r.items),
    );
  }

  /** One page of 100 events as the service account reads them, with the index's query plus `query`. */
  #readPage(page: number, query: Record<string, string> = {}) {
    return this.#client.list<WpPost>({
      path: this.#path,
      query: { ...this.#query, ...query, per_page: 100, page },
      as: 'service',
      language: this.language,
    });
  }

  #crawl(query: Record<string, string | number>, onPage?: (done: number, total: number) => void) {
    return this.#client.all<WpPost>(
      { path: this.#path, query: { ...this.#query, ...query }, as: 'service', language: this.language },
      onPage,
      this.#concurrency,
    );
  }

  /**
   * Reads every event, `#concurrency` pages at a time, applying each page as it arrives (no copy of the whole
   * site in memory). A failure keeps what was read and where it stopped; the next build resumes there (pages
   * are in id order: posts deleted meanwhile can shift one past the crawl, the reconciliation finds it).
   */
  async #build(progress: BuildProgress): Promise<void> {
    const t0 = performance.now();
    const state = this.#resume ?? { page: 1, seen: new IdTable(), seq0: this.#seq, newest: '', ms: 0 };
    this.#resume = state;
    progress.start();
    try {
      let totalPages = Number.POSITIVE_INFINITY;
      let total = 0;
      while (state.page <= totalPages) {
        const pages: number[] = [];
        const width = state.page === 1 || totalPages === Number.POSITIVE_INFINITY ? 1 : this.#concurrency;
        for (let p = state.page; p < state.page + width && p <= totalPages; p++) pages.push(p);
        // Settled, not Promise.all: a failed batch leaves none of its pages in flight for the resumed crawl to overlap.
        const results = await allSettled(pages.map((p) => this.#readPage(p)));
        for (const r of results) {
          totalPages = r.totalPages;
          await inSlices(r.items, this.#tuning.sliceMs, (post) => this.#read(state, post));
          // Room for the rest of the site at once, once the first page tells its size and the text's: the events
          // not held yet (a crawl over a loaded index adds a row only for those that changed). In slices as posts are
          // applied: in one task, the tables of 100k events took up to 18 ms of CPU (fresh memory).
          if (total === 0) {
            const rows = r.total - this.#columns.size;
            const steps = [
              ...this.#columns.reserving(rows),
              () => this.#written.reserve(this.#written.size + rows),
              () => state.seen.reserve(r.total),
            ];
            await inSlices(steps, this.#tuning.sliceMs, (step) => step());
          }
          total = r.total;
          state.page++;
        }
        progress.update(state.seen.size, total);
        if (totalPages === 0) break;
      }
    } catch (err) {
      state.ms += performance.now() - t0;
      progress.fail();
      this.#logger.warn(
        { language: this.language, page: state.page, read: state.seen.size, err: String(err) },
        'Event index crawl failed; the next attempt resumes at this page',
      );
      throw err;
    }
    this.#resume = null;
    // The ids held, read from a copy of the rows' order (one typed array), not spread from the id table (a million
    // ids spread into an array in one task at 1M events). A row is never renumbered, so its id reads the same later.
    const columns = this.#columns;
    await inSlices(columns.rowsInOrder(), this.#tuning.sliceMs, (r) => {
      const id = columns.idAt(r);
      if (!state.seen.has(id) && (this.#written.get(id) ?? 0) <= state.seq0) this.#delete(id);
    });
    this.#columns.warmWhenPosted();
    const ms = Math.round(state.ms + performance.now() - t0);
    this.#buildMs = ms;
    this.#since = nextSince(this.#since, [state.newest], {
      overlapMs: this.#overlapMs,
      crawlMs: ms,
      nowMs: Date.now(),
    });
    this.#builtAt = this.#lastRefreshAt = new Date();
    progress.finish(this.size, ms);
  }

  async #refresh(): Promise<number> {
    if (!this.#builtAt) {
      await this.build();
      return this.size;
    }
    const t0 = performance.now();
    const query: Record<string, string> = {};
    if (this.#since !== null) query.modified_after = modifiedAfter(this.#since);
    // Applied a page at a time, each in its own tick: a poll that finds thousands of changes never stalls the loop.
    const changed: number[] = [];
    let newest = '';
    await this.#eachPage(query, (posts) =>
      inSlices(posts, this.#tuning.sliceMs, (post) => {
        newest = newerStamp(newest, post.modified_gmt);
        if (this.#apply(post)) changed.push(post.id);
      }),
    );
    this.#since = nextSince(this.#since, [newest], {
      overlapMs: this.#overlapMs,
      crawlMs: performance.now() - t0,
      nowMs: Date.now(),
    });
    this.#lastRefreshAt = new Date();
    if (changed.length) this.#changedUpstream(changed);
    return changed.length;
  }

  async #reconcile(): Promise<ReconcileResult> {
    if (!this.#builtAt) await this.build();
    const seq0 = this.#seq;
    const rows = await this.#client.all<UpstreamRow>(
      {
        path: this.#path,
        query: {
          status: INDEX_STATUSES.join(','),
          _fields: 'id,status,modified_gmt',
          orderby: 'id',
          order: 'asc',
        },
        as: 'service',
        language: this.language,
      },
      undefined,
      this.#concurrency,
    );
    const { gone, stale } = reconcilePlan(
      {
        index: this.#columns,
        tombstones: this.#tombstones,
        changedSince: (id) => (this.#written.get(id) ?? 0) > seq0,
      },
      rows,
    );
    const changed: number[] = [];
    for (const id of gone) {
      this.#gone(id);
      changed.push(id);
    }
    const upstream = new Set(rows.map((r) => r.id));
    for (const id of this.#tombstones.keys()) if (!upstream.has(id)) this.#tombstones.delete(id);
    for (let i = 0; i < stale.length; i += 100) {
      const posts = await this.#crawl({ include: stale.slice(i, i + 100).join(',') });
      for (const post of posts) if (this.#apply(post)) changed.push(post.id);
    }
    if (changed.length) this.#changedUpstream(changed);
    return { removed: gone.length, refetched: stale.length };
  }

  /** A post read by a build: noted as seen, and applied. */
  #read(state: CrawlState, post: WpPost): void {
    state.seen.set(post.id, 1);
    state.newest = newerStamp(state.newest, post.modified_gmt);
    // A build tells nobody what it read (the cache starts empty or is dropped with it): no links to report.
    this.#apply(post, false);
  }

  /** A post read by a crawl: applied unless the index already holds a newer copy or it was removed since. */
  #apply(post: WpPost, report = true): boolean {
    const f = facetsOf(post, this.#mapping);
    const tomb = this.#tombstones.get(f.id);
    if (tomb !== undefined && f.modifiedGmt <= tomb) return false;
    // Read from the columns, not as a record: a poll asks this of every post it reads.
    const had = this.#columns.has(f.id);
    if (had && (this.#columns.modifiedOf(f.id) ?? '') > f.modifiedGmt) return false;
    this.#tombstones.delete(f.id);
    if (had && this.#columns.holds(f)) return false;
    if (report) {
      const old = had ? this.#columns.get(f.id) : undefined;
      for (const t of linkTags(old, f)) this.#links.add(t);
      if (!softChange(old, f)) this.#hid = true;
    }
    this.#set(f);
    return true;
  }

  /** An event gone upstream (refetch, reconciliation): dropped, with the linked lists it was counted in. */
  #gone(id: number): void {
    const old = this.#columns.get(id);
    for (const t of linkTags(old, undefined)) this.#links.add(t);
    if (!softChange(old, undefined)) this.#hid = true;
    this.#delete(id);
  }

  #changedUpstream(ids: number[]): void {
    const links = [...this.#links];
    this.#links.clear();
    const soft = !this.#hid;
    this.#hid = false;
    this.#onChange(ids, links, soft);
  }

  /** Room for `rows` more events in the columns and the write sequence, made once. */
  #reserve(rows: number): void {
    this.#columns.reserve(rows);
    this.#written.reserve(this.#written.size + rows);
  }

  #set(f: StoredEvent, inOrder = false): void {
    this.#columns.set(f, inOrder);
    this.#setDone(f.id);
  }

  /** Event `id` was just set in the columns: its write sequence, and a compaction under way is told. */
  #setDone(id: number): void {
    this.#written.set(id, ++this.#seq);
    this.#changed(id);
  }

  #delete(id: number): void {
    if (!this.#columns.delete(id)) return;
    this.#written.set(id, ++this.#seq);
    this.#changed(id);
  }

  /**
   * Drops the rows of replaced and removed events: starts a compaction unless one is under way, and resolves when
   * it is over. The same background compaction as the one changes start (a slice a tick; the index answers and
   * takes changes throughout); tests call it to run one when they choose.
   */
  compact(): Promise<void> {
    if (!this.#compaction) {
      // Sized for every event at once: growing, it would rehash in one task.
      const touched: Touched = { seen: new IdTable(this.#columns.size), ids: [], at: 0 };
      const done = this.#compact(touched).finally(() => {
        this.#compaction = null;
      });
      this.#compaction = { touched, done };
    }
    return this.#compaction.done;
  }

  /** The index's columns (new ones as built, and as a compaction builds them). */
  #newColumns(): EventColumns {
    return new EventColumns(this.#tuning.columns);
  }

  /** Notes a change for a compaction under way, or starts one when replaced rows are many. */
  #changed(id: number): void {
    if (this.#compaction) {
      const t = this.#compaction.touched;
      if (!t.seen.has(id)) {
        t.seen.set(id, 1);
        t.ids.push(id);
      }
      return;
    }
    const c = this.#columns;
    if (c.dead > Math.max(c.size / 4, COMPACT_MIN_DEAD)) void this.compact();
  }

  /**
   * Rebuilds the rows without the dead ones (replaced and removed events) into new columns, a slice a tick, while
   * the old ones answer; events changed meanwhile (`touched`) are copied again at the end, and the new columns
   * take over in the same tick as the last copy. Copies take SLICE_MS a tick, as a poll's changes do, so a poll that
   * replaces every event is outpaced.
   */
  async #compact(touched: Touched): Promise<void> {
    const from = this.#columns;
    // Its search postings are made in the background meanwhile, so searches stay fast once it takes over.
    const next = this.#newColumns();
    const { compactRows: slice, compactMs: ms } = this.#tuning;
    // The rows added meanwhile are posted once, in `next`, when copied there (not here as well).
    from.retireWords(true);
    let tookOver = false;
    try {
      let t0 = performance.now();
      const pause = async () => {
        if (performance.now() - t0 < ms) return true;
        await tick();
        t0 = performance.now();
        return this.#columns === from;
      };
      // Rows are copied as they are (no event is decoded): a row never changes, and the rows of events changed
      // meanwhile are copied again at the end.
      const rows = from.rowsInOrder();
      for (let i = 0; i < rows.length; i += slice) {
        const end = Math.min(rows.length, i + slice);
        for (let k = i; k < end; k++)
          if (!touched.seen.has(from.idAt(rows[k]))) next.copy(from, rows[k], true);
        if (i === 0) next.reserve(rows.length - next.size);
        if (!(await pause())) return;
      }
      // Ids are noted once each (`seen`) and copied in the order they changed; one changed again after its copy is
      // noted again.
      while (touched.at < touched.ids.length) {
        const end = Math.min(touched.ids.length, touched.at + slice);
        for (; touched.at < end; touched.at++) {
          const id = touched.ids[touched.at];
          touched.seen.delete(id);
          const r = from.rowOf(id);
          if (r !== undefined) next.copy(from, r);
          else next.delete(id);
        }
        if (touched.at < touched.ids.length && !(await pause())) return;
      }
      this.#columns = next;
      tookOver = true;
      next.warmWhenPosted();
    } catch (err) {
      this.#logger.warn(
        { err: String(err) },
        'Event index compaction abandoned; the next change starts another',
      );
    } finally {
      if (!tookOver) from.retireWords(false);
    }
  }
}
