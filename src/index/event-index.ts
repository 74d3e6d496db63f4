// The event index of one language: every event's facets in columns (src/index/columns/), built by a crawl or from a
// snapshot, kept fresh by writes, polls and reconciliation, and compacted in the background.
import { utcWallOf } from '../dates/utc-wall.ts';
import type { Mapping } from '../mapping/schema.ts';
import type { WpPost } from '../wp/types.ts';
import { type ColumnsOptions, EventColumns } from './columns/index.ts';
import type { IndexedEvent, StoredEvent } from './columns/rows.ts';
import {
  COMPACT_MIN_DEAD,
  COMPACT_SLICE,
  Compactions,
  compactInto,
  inSlices,
  SLICE_MS,
  type Touched,
} from './compaction.ts';
import { type CrawlState, crawlPages, UpstreamEvents } from './crawl.ts';
import type { EventIndexOptions, IndexSnapshot, ReconcileResult, Restoring } from './event-index-types.ts';
import { type EventFacets, facetsOf } from './facets.ts';
import { IdTable, idSet } from './id-table.ts';
import { sameRepeat } from './occurrences/repeat.ts';
import { OccurrenceStore } from './occurrences/store.ts';
import { type BuildProgress, buildProgress, type IndexLogger, stderrLogger } from './progress.ts';
import type { IndexQuery, IndexResult } from './query.ts';
import { ReadOrder } from './read-order.ts';
import { Periodic } from './schedule.ts';
import { modifiedAfter, newerStamp, nextSince, reconcilePlan } from './sync.ts';
import { UpstreamChanges } from './upstream-changes.ts';

export type { IndexClient, IndexSnapshot } from './event-index-types.ts';

export class EventIndex {
  readonly language: string;
  /** Reads the events from WordPress. */
  readonly #upstream: UpstreamEvents;
  readonly #mapping: Mapping;
  readonly #logger: IndexLogger;
  readonly #overlapMs: number;

  readonly #tuning: { columns: ColumnsOptions; compactRows: number; compactMs: number; sliceMs: number };
  #columns: EventColumns;
  /** The ids changed since the compaction under way began, and its end. */
  readonly #compactions = new Compactions((touched) => this.#compact(touched));
  /** Write sequence number of each id's last change, so a crawl never drops what was written while it ran. */
  readonly #written = new IdTable();
  #seq = 0;
  readonly #reads = new ReadOrder();
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
  /** What the changes applied since the last `onChange` altered (linked lists, public view). */
  readonly #changes: UpstreamChanges;
  /** The series and overrides held, and their occurrences (src/index/occurrences/, which reads the columns now). */
  readonly repeats: OccurrenceStore;
  readonly columnsNow = (): EventColumns => this.#columns;

  constructor(options: EventIndexOptions) {
    this.language = options.language;
    this.#mapping = options.mapping;
    this.#logger = options.logger ?? stderrLogger;
    this.#overlapMs = options.overlapMs ?? 10_000;
    this.#concurrency = Math.max(1, options.crawlConcurrency ?? 2);
    this.#upstream = new UpstreamEvents(options.client, options.mapping, this.language, this.#concurrency);
    this.#changes = new UpstreamChanges(options.onChange ?? (() => {}));
    const t = options.tuning ?? {};
    this.repeats = new OccurrenceStore({ ...t, windowMonths: options.recurrenceWindowMonths });
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
      repeats: () => this.repeats.entries(),
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
      reserve: (rows) => {
        for (const step of this.#reserving(rows)) step();
      },
      reserving: (rows) => this.#reserving(rows),
      addRepeats: (list) => {
        for (const [id, r] of list) if (this.#columns.has(id)) this.repeats.set(id, r, this.#columns.get(id));
      },
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
        this.repeats.clear();
      },
    };
  }

  /** Re-reads some posts now (a change notification): applies what changed, drops what is gone upstream. */
  async refetch(ids: number[]): Promise<number[]> {
    const changed: number[] = [];
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      const tick = this.#reads.begin();
      const posts = await this.#upstream.crawl({ include: chunk.join(',') });
      const seen = new Set(posts.map((p) => p.id));
      for (const post of posts) if (this.#apply(post, tick)) changed.push(post.id);
      for (const id of chunk) {
        if (!seen.has(id) && this.#columns.has(id)) {
          this.#gone(id);
          changed.push(id);
        }
      }
    }
    if (changed.length) this.#changes.report(changed);
    return changed;
  }

  get size(): number {
    return this.#columns.size;
  }
  /** Bumped by every change the index takes (what answers worked out from it are cached on). */
  get version(): number {
    return this.#seq;
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

  /** Bytes held by part (columns, write sequence), for the heap figures of the benchmarks. */
  bytesByPart(): Record<string, number> {
    return { ...this.#columns.bytesByPart(), 'write sequence (id table)': this.#written.bytes };
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

  /** An event's venue id (0: none, or no such event), without building its record (src/geo/ orders by it). */
  venueOf(id: number): number {
    return this.#columns.venueOf(id);
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
    this.#reads.took(f.id, f.modifiedGmt);
    return f;
  }

  /** A post deleted through the gateway: dropped at once, and kept out unless it changes upstream later. */
  remove(id: number): void {
    this.#tombstones.set(id, utcWallOf(Date.now()));
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

  /**
   * Reads every event, `#concurrency` pages at a time, applying each page as it arrives (no copy of the whole
   * site in memory). A failure keeps what was read and where it stopped; the next build resumes there (pages
   * are in id order: posts deleted meanwhile can shift one past the crawl, the reconciliation finds it).
   */
  async #build(progress: BuildProgress): Promise<void> {
    const t0 = performance.now();
    const state = this.#resume ?? { page: 1, seen: idSet(), seq0: this.#seq, newest: '', ms: 0 };
    const tick = this.#reads.begin();
    this.#resume = state;
    progress.start();
    try {
      await crawlPages(state, {
        readPage: (page) => this.#upstream.readPage(page),
        width: this.#concurrency,
        sliceMs: this.#tuning.sliceMs,
        read: (post) => this.#read(state, post, tick),
        // Once the first page tells the site's size: room for the events not held yet (over a loaded index, changes).
        reserving: (total) => [
          ...this.#reserving(total - this.#columns.size),
          () => state.seen.reserve(total),
        ],
        progress: (read, total) => progress.update(read, total),
      });
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
    // The ids held, read row by row in slices (no copy of the order or spread of the id table: 4–8 MB in one task at
    // 1M events). A row is never renumbered; one that died meanwhile is skipped (its event is gone or has a newer row).
    const columns = this.#columns;
    await inSlices(columns.liveRows(), this.#tuning.sliceMs, (r) => {
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
    const tick = this.#reads.begin();
    this.#changes.flush(); // What a failed poll applied: reported now, and not counted in this one.
    const query: Record<string, string> = {};
    if (this.#since !== null) query.modified_after = modifiedAfter(this.#since);
    // Applied a page at a time, each in its own tick: a poll that finds thousands of changes never stalls the loop.
    // Reported some thousands at a time (a list of a million ids grown in one task stalled it).
    let newest = '';
    await this.#upstream.eachPage(query, (posts) =>
      inSlices(posts, this.#tuning.sliceMs, (post) => {
        newest = newerStamp(newest, post.modified_gmt);
        if (this.#apply(post, tick)) this.#changes.add(post.id);
      }),
    );
    this.#since = nextSince(this.#since, [newest], {
      overlapMs: this.#overlapMs,
      crawlMs: performance.now() - t0,
      nowMs: Date.now(),
    });
    this.#lastRefreshAt = new Date();
    return this.#changes.flush();
  }

  async #reconcile(): Promise<ReconcileResult> {
    if (!this.#builtAt) await this.build();
    const seq0 = this.#seq;
    const tick = this.#reads.begin();
    const rows = await this.#upstream.rows();
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
      const posts = await this.#upstream.crawl({ include: stale.slice(i, i + 100).join(',') });
      for (const post of posts) if (this.#apply(post, tick)) changed.push(post.id);
    }
    if (changed.length) this.#changes.report(changed);
    return { removed: gone.length, refetched: stale.length };
  }

  /** A post read by a build: noted as seen, and applied. */
  #read(state: CrawlState, post: WpPost, tick: number): void {
    state.seen.set(post.id, 1);
    state.newest = newerStamp(state.newest, post.modified_gmt);
    // A build tells nobody what it read (the cache starts empty or is dropped with it): no links to report.
    this.#apply(post, tick, false);
  }

  /**
   * A post read by a crawl: applied unless the index already holds a newer copy (or the same stamp from a read begun
   * later: src/index/read-order.ts) or it was removed since. `tick`: when the read began.
   */
  #apply(post: WpPost, tick: number, report = true): boolean {
    const f = facetsOf(post, this.#mapping);
    const tomb = this.#tombstones.get(f.id);
    if (tomb !== undefined && f.modifiedGmt <= tomb) return false;
    // Read from the columns, not as a record: a poll asks this of every post it reads.
    const had = this.#columns.has(f.id);
    const held = had ? (this.#columns.modifiedOf(f.id) ?? '') : '';
    if (held > f.modifiedGmt) return false;
    if (had && this.#reads.older(f.id, f.modifiedGmt, held, tick)) return false;
    this.#tombstones.delete(f.id);
    if (had && this.#columns.holds(f) && sameRepeat(this.repeats.get(f.id), f.repeat)) return false;
    if (report) this.#changes.note(had ? this.#columns.get(f.id) : undefined, f);
    this.#set(f);
    // A build's reads are not kept (a million stamps looked at): a poll or a re-read that began before it is rare.
    if (report) this.#reads.took(f.id, f.modifiedGmt, tick);
    return true;
  }

  /** An event gone upstream (refetch, reconciliation): dropped, with the linked lists it was counted in. */
  #gone(id: number): void {
    this.#changes.note(this.#columns.get(id), undefined);
    this.#delete(id);
  }

  /** Room for `rows` more events in the columns and the write sequence, as steps (a caller may yield between them). */
  #reserving(rows: number): (() => void)[] {
    return [...this.#columns.reserving(rows), () => this.#written.reserve(this.#written.size + rows)];
  }

  #set(f: StoredEvent & Pick<EventFacets, 'repeat'>, inOrder = false): void {
    this.#columns.set(f, inOrder);
    this.repeats.set(f.id, f.repeat, f);
    this.#setDone(f.id);
  }

  /** Event `id` was just set in the columns: its write sequence, and a compaction under way is told. */
  #setDone(id: number): void {
    this.#written.set(id, ++this.#seq);
    this.#changed(id);
  }

  #delete(id: number): void {
    this.repeats.delete(id);
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
    return this.#compactions.start();
  }

  /** The index's columns (new ones as built, and as a compaction builds them). */
  #newColumns(): EventColumns {
    return new EventColumns(this.#tuning.columns);
  }

  /** Notes a change for a compaction under way, or starts one when replaced rows are many. */
  #changed(id: number): void {
    if (this.#compactions.note(id)) return;
    const c = this.#columns;
    if (c.dead > Math.max(c.size / 4, COMPACT_MIN_DEAD)) void this.compact();
  }

  /**
   * Rebuilds the rows without the dead ones (replaced and removed events) into new columns, a slice a tick, while
   * the old ones answer; events changed meanwhile (`touched`) are copied again at the end, and the new columns
   * take over in the same tick as the last copy. Copies take SLICE_MS a tick, as a poll's changes do, so a poll that
   * replaces every event is outpaced.
   */
  #compact(touched: Touched): Promise<void> {
    const from = this.#columns;
    // Its search postings are made in the background meanwhile, so searches stay fast once it takes over.
    const next = this.#newColumns();
    const current = () => this.#columns === from;
    const takeOver = () => {
      this.#columns = next;
    };
    return compactInto(from, next, touched, this.#tuning, current, takeOver, this.#logger);
  }
}
