// The response cache: L1 lru-cache (bytes-bounded, one fetch per key, SWR, stale-if-error) over optional Redis L2.
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { UrlAliases } from './aliases.ts';
import { BesideBudget } from './budget.ts';
import { EXACT_CLOCK } from './count-bound.ts';
import { DropTimes } from './drop-times.ts';
import type { CacheEntry, CachePolicy } from './entry.ts';
import { ALL_LINK_TAGS } from './links.ts';
import { HARD_TAG, isMarker, isSoft, SOFT_TAG } from './markers.ts';
import type { FetchContext, Loaded, ResponseCacheOptions } from './options.ts';
import { Races } from './races.ts';
import type { CacheLogger } from './redis.ts';
import { SoftMarks } from './soft-marks.ts';
import { type InvalidationMessage, RedisTier } from './store.ts';
import { Holds, TagIndex } from './tag-index.ts';
import { tag } from './tags.ts';

export { HARD_TAG, isSoft, SOFT_TAG } from './markers.ts';
export type { Loaded, ResponseCacheOptions } from './options.ts';

export type CacheSource = 'l1' | 'l2' | 'upstream';

const quiet: CacheLogger = { warn() {}, info() {} };
/** When an invalidation that reached Redis is done again (ResponseCache#invalidate). */
const AGAIN_MS = 250;

export class ResponseCache {
  readonly policy: CachePolicy;
  readonly #l1: LRUCache<string, CacheEntry, FetchContext>;
  readonly #l2: RedisTier | undefined;
  readonly #log: CacheLogger;
  readonly #now: () => number;
  readonly #origin = randomUUID();
  readonly #purger: ResponseCacheOptions['purger'];
  /** L1 keys softly invalidated: never fresh (not for `peek`), served while their refill runs (src/cache/soft-marks.ts). */
  readonly #soft: SoftMarks;
  readonly #beside: BesideBudget;
  readonly #tags = new TagIndex();
  readonly #holds = new Holds();
  readonly #races = new Races();
  /**
   * The last failed load of each key, numbered: a caller that waited on that load gets its error instead of loading
   * again (lru-cache resolves a rejected fetch without a stale entry to `undefined`), so a failing WordPress sees
   * each cold key once, not once per waiting caller plus once more.
   */
  readonly #failures = new Map<string, { err: unknown; n: number }>();
  #failureCount = 0;
  /** When this instance dropped each tag: a Redis copy from before is not fresh (src/cache/drop-times.ts). */
  readonly #drops: DropTimes;
  /** Tags invalidated while Redis was away, replayed (deleted + published) when it is back. */
  readonly #pending = new Set<string>();
  #pendingAll = false;
  /**
   * `soft`: answers served from a softly invalidated entry while its refill ran (also counted in `stale`); `softLate`:
   * those of them served past the soft window because the refill was slower, or waited its turn.
   */
  readonly stats = { l1: 0, l2: 0, upstream: 0, stale: 0, soft: 0, softLate: 0 };
  /** Raw URLs already resolved to a key, for the fast path in front of express. */
  readonly aliases = new UrlAliases();

  constructor(opts: ResponseCacheOptions) {
    this.policy = opts.policy;
    this.#log = opts.log ?? quiet;
    this.#now = opts.now ?? Date.now;
    this.#purger = opts.purger;
    this.#drops = new DropTimes(this.#now, isMarker);
    this.#soft = new SoftMarks(Math.max(0, opts.softStaleMs ?? 0));
    const ttl = opts.policy.ttlSeconds * 1000;
    const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
    this.#l1 = new LRUCache<string, CacheEntry, FetchContext>({
      maxSize: maxBytes,
      sizeCalculation: (e, key) => e.body.length + key.length + 256,
      ttl: Math.max(1, ttl),
      ...EXACT_CLOCK,
      // Stale entries are kept (bounded by `#expireTooOld`) to serve while revalidating and when the upstream fails.
      allowStale: true,
      noDeleteOnStaleGet: true,
      allowStaleOnFetchRejection: true,
      noDeleteOnFetchRejection: true,
      allowStaleOnFetchAbort: true,
      fetchMethod: (key, _stale, { context, options }) => this.#fill(key, context, options),
      // What an entry keeps beside its body (gzip, shaped forms) counts in the budget too (src/cache/budget.ts).
      onInsert: (e, key) => this.#beside.inserted(key, e),
      // On `set` the key stays, re-tagged by #fill; every other reason removes it.
      dispose: (e, key, reason) => {
        this.#beside.disposed(key, e);
        if (reason === 'set') return;
        this.#tags.remove(key, e.tags);
        this.#soft.delete(key);
      },
      // lru-cache uses performance.now() by default; tests move a fake clock.
      perf: { now: () => this.#now() },
    });
    this.#beside = new BesideBudget(this.#l1 as LRUCache<string, CacheEntry, unknown>, maxBytes);
    if (opts.redis) {
      this.#l2 = new RedisTier(opts.redis, opts.prefix ?? 'cg:');
      this.#l2.listen({
        message: (m) => this.#onMessage(m),
        gap: (why) => {
          this.#log.warn({ why }, 'Invalidations were missed: dropping the whole in-process cache');
          this.#dropAllLocal();
        },
        // Filled before the reader first looked at the stream's end (it takes a round trip or more after start-up,
        // seconds on a loaded machine): an invalidation appended meanwhile is behind where the reader starts.
        started: () => {
          if (this.#l1.size > 0) this.#dropAllLocal();
        },
      });
      opts.redis.onRecover(() => {
        this.#replay().catch(() => {});
      });
    }
  }

  /** Entry lifetime in Redis: fresh + the longest stale window. */
  get #lifeMs(): number {
    const p = this.policy;
    return (p.ttlSeconds + Math.max(p.staleWhileRevalidateSeconds, p.staleIfErrorSeconds)) * 1000;
  }

  /** How old an entry may be and still be served stale while it refreshes: fresh + stale-while-revalidate. */
  get #revalidateMs(): number {
    return (this.policy.ttlSeconds + this.policy.staleWhileRevalidateSeconds) * 1000;
  }

  /** A fresh L1 entry, synchronously: the hot path (no promise, no Redis, no JSON). */
  peek(key: string): CacheEntry | undefined {
    // A softly invalidated entry is never fresh: the fast path and the cache stage send it to `get`.
    if (this.#soft.size !== 0 && this.#soft.has(key)) return undefined;
    const e = this.#l1.get(key, { allowStale: false });
    if (e) this.stats.l1++;
    return e;
  }

  /** A softly invalidated key's previous answer when `get` would serve it (unshared) without starting anything. */
  peekSoft(key: string): CacheEntry | undefined {
    const servable = this.#soft.size === 0 ? 'no' : this.#soft.servableAsIs(key, this.#now());
    const old = servable === 'no' ? undefined : this.#l1.get(key, { allowStale: true });
    if (!old || this.#now() - old.storedAt > this.#revalidateMs) return undefined;
    return this.#servedSoft(key, old, servable === 'late').entry;
  }

  /**
   * The entry for `key`: fresh from L1, else (one load per key at a time) from Redis, else from `load`. A stale
   * entry inside the stale-while-revalidate window is returned at once while a refresh runs; if the upstream fails,
   * a stale entry inside the stale-if-error window is returned instead of the error. A softly invalidated entry is
   * returned at once, unshared, while one refill runs, as `SoftMarks.servable` says (src/cache/soft-marks.ts).
   */
  async get(
    key: string,
    load: () => Promise<Loaded>,
  ): Promise<{ entry: CacheEntry; source: CacheSource; shared: boolean }> {
    const hit = this.peek(key);
    if (hit) return { entry: hit, source: 'l1', shared: true };
    // Softly invalidated while its refill runs or every refill slot is taken (src/cache/soft-marks.ts): the previous
    // answer, inside the soft window and past it (bounded), starting nothing; the fast path serves the same.
    const previous = this.peekSoft(key);
    if (previous) return { entry: previous, source: 'l1', shared: false };
    const old = this.#l1.get(key, { allowStale: true });
    let allowStale = false;
    const soft = old && this.#soft.get(key);
    const servable = soft ? this.#soft.servable(key, this.#now()) : 'no';
    if (old) {
      const age = this.#now() - old.storedAt;
      if (age > this.#lifeMs) this.#l1.delete(key);
      // Softly invalidated and no refill runs: the previous answer while this call refills, when servable.
      else allowStale = age <= this.#revalidateMs && (!soft || servable !== 'no');
    }
    const context: FetchContext = { load, seq: this.#races.seq, at: this.#now() };
    const mark = this.#failureCount;
    // A softly invalidated entry may still be fresh by its TTL: the refill is forced (and coalesced per key).
    const entry = await this.#l1.fetch(key, { context, allowStale, forceRefresh: !!soft });
    const failed = this.#failures.get(key);
    if (!entry && failed && failed.n > mark) throw failed.err;
    if (context.result && (!entry || entry === context.result.entry)) {
      this.stats.upstream++;
      const shared = context.result.store && !context.unstored;
      return { entry: context.result.entry, source: 'upstream', shared };
    }
    if (entry) {
      if (entry !== old) {
        this.stats.l2++;
        return { entry, source: 'l2', shared: true };
      }
      if (soft) return this.#servedSoft(key, entry, servable === 'late');
      this.stats.stale++;
      return { entry, source: 'l1', shared: true };
    }
    // This call joined another caller's load whose result was not shareable, or its own load was given up by
    // lru-cache while it ran (the key was deleted meanwhile): its own answer, never shared.
    this.stats.upstream++;
    const own = await (context.running ?? load());
    return { entry: own.entry, source: 'upstream', shared: false };
  }

  /** The previous answer of a write's drop: a CDN or browser must not keep it past the refill. */
  #servedSoft(
    key: string,
    entry: CacheEntry,
    late: boolean,
  ): { entry: CacheEntry; source: CacheSource; shared: boolean } {
    this.#soft.read(key);
    this.stats.stale++;
    this.stats.soft++;
    if (late) this.stats.softLate++;
    return { entry, source: 'l1', shared: false };
  }

  /** A refill of a softly invalidated key takes one of the few refill slots (src/cache/soft-marks.ts). */
  async #fill(
    key: string,
    context: FetchContext,
    options: { ttl?: number },
  ): Promise<CacheEntry | undefined> {
    const ended = this.#soft.has(key) ? this.#soft.started(key) : undefined;
    try {
      return await this.#refill(key, context, options);
    } finally {
      ended?.();
    }
  }

  async #refill(
    key: string,
    context: FetchContext,
    options: { ttl?: number },
  ): Promise<CacheEntry | undefined> {
    const ttl = this.policy.ttlSeconds * 1000;
    const remote = await this.#l2?.get(key).catch(() => undefined);
    if (
      remote &&
      this.#now() - remote.storedAt < ttl &&
      !this.#races.hard(remote.tags, context.seq) &&
      !this.#races.soft(remote.tags, context.seq) &&
      !this.#drops.olderThanDrop(remote) &&
      !this.#soft.raced(key, context.seq)
    ) {
      // Keep the entry's own age: L1 must not make a copy filled elsewhere look fresher than it is.
      options.ttl = Math.max(1, ttl - (this.#now() - remote.storedAt));
      this.#tags.add(key, remote.tags);
      this.#soft.delete(key);
      return remote;
    }
    let loaded: Loaded;
    try {
      context.running = context.load();
      loaded = await context.running;
    } catch (err) {
      // Redis may hold a copy younger than the stale-if-error limit that L1 never had.
      if (remote && this.#now() - remote.storedAt < this.#lifeMs) {
        options.ttl = 1;
        this.#tags.add(key, remote.tags);
        return remote;
      }
      if (this.#failures.size > 10_000) this.#failures.clear();
      this.#failures.set(key, { err, n: ++this.#failureCount });
      throw err;
    }
    this.#failures.delete(key);
    context.result = loaded;
    if (!loaded.store) return undefined;
    if (this.#races.hard(loaded.entry.tags, context.seq) || this.#holds.has(loaded.entry.tags)) {
      context.unstored = true;
      return undefined;
    }
    if (this.#soft.raced(key, context.seq) || this.#races.soft(loaded.entry.tags, context.seq)) {
      // Only soft drops came meanwhile (nothing left public view): kept in L1 as the previous answer, newer than the
      // one it replaces, never fresh nor shared nor in Redis; its age counts from the load's start.
      context.unstored = true;
      this.#tags.add(key, loaded.entry.tags);
      this.#soft.replace(key, { since: context.at, seq: this.#races.seq, read: true });
      return loaded.entry;
    }
    this.#tags.add(key, loaded.entry.tags);
    this.#soft.delete(key);
    this.#l2?.set(key, loaded.entry, this.#lifeMs).catch(() => {});
    return loaded.entry;
  }

  /**
   * Drops the L1 entries of the tags: at once, or (a soft invalidation, see SOFT_TAG) by marking them stale since
   * now, so that `get` serves each one's previous answer while its refill runs, for `softStaleMs`.
   */
  #dropLocal(tags: string[]): number {
    const since = this.#now();
    const soft = this.#soft.enabled && isSoft(tags);
    const named = tags.filter((t) => !isMarker(t));
    const seq = this.#races.drop(named, soft);
    let n = 0;
    for (const t of named) {
      for (const key of soft ? this.#tags.keys(t) : this.#tags.take(t)) {
        if (soft && this.#l1.get(key, { allowStale: true }) !== undefined) {
          this.#soft.mark(key, seq, since);
          n++;
        } else if (this.#l1.delete(key)) n++;
      }
    }
    for (const fn of this.#listeners) fn(named);
    return n;
  }

  #dropAllLocal(): void {
    this.#races.purge();
    // The tag index and soft set emptied first: each entry's dispose then finds them empty (src/cache/tag-index.ts).
    this.#tags.clear();
    this.#soft.clear();
    this.#l1.clear();
    for (const fn of this.#listeners) fn(null);
  }

  readonly #listeners: Array<(tags: string[] | null) => void> = [];

  /** Calls `fn` after every drop in this instance, local or announced by another (`null`: everything). */
  onInvalidate(fn: (tags: string[] | null) => void): void {
    this.#listeners.push(fn);
  }

  /** Events gone from WordPress for good: every answer that showed them, and every event list, is dropped. */
  forgetEvents(ids: readonly number[]): Promise<void> {
    // What they linked is not known any more: every linked list they may have counted in goes too.
    return this.invalidate([tag.list('event'), ...ALL_LINK_TAGS, ...ids.map((id) => tag.event(id))]);
  }

  /**
   * Drops every entry carrying one of the tags, in this instance, in Redis and (through the invalidation stream) in every other
   * instance's L1, then has the CDN purge them (when one is configured). Never throws: with Redis away, the tags are
   * replayed when it is back.
   */
  async invalidate(tags: string[], opts: { soft?: boolean } = {}): Promise<void> {
    if (tags.length === 0) return;
    this.#drops.note(tags);
    try {
      // Every instance (this one, and those reading the message) drops as the markers say.
      await this.#invalidate([...tags, opts.soft ? SOFT_TAG : HARD_TAG]);
    } finally {
      // After this instance's tiers and Redis: the CDN's refill must not find the old answer here.
      this.#purger?.purge(tags);
    }
  }

  async #invalidate(tags: string[], again = true): Promise<void> {
    this.#dropLocal(tags);
    if (!this.#l2) return;
    try {
      if (!this.#l2.up) throw new Error('down');
      await this.#l2.invalidate(tags);
      await this.#l2.publish({ origin: this.#origin, tags });
      this.#retryMs = 250;
      // Once more a little later: a fill that read the old answer before this invalidation (here, from Redis while
      // it was being deleted; or in another instance, before the stream reached it) may store it after the deletion.
      if (again) setTimeout(() => this.#invalidate(tags, false), AGAIN_MS).unref();
    } catch {
      for (const t of tags) this.#pending.add(t);
      this.#retryLater();
    }
  }

  #retryTimer: NodeJS.Timeout | undefined;
  #retryMs = 250;

  /**
   * Replays what Redis did not take, soon: one master of a cluster may be failing over while the link stays up (no
   * reconnection announces the end of it), so waiting for `onRecover` alone could wait forever.
   */
  #retryLater(): void {
    if (this.#retryTimer) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#retryMs = Math.min(this.#retryMs * 2, 2_000);
      this.#replay().catch(() => {});
    }, this.#retryMs);
    this.#retryTimer.unref();
  }

  /** Drops everything, everywhere (operators' purge). */
  async purgeAll(): Promise<void> {
    this.#drops.note(null);
    try {
      await this.#purgeAll();
    } finally {
      this.#purger?.purge(null);
    }
  }

  async #purgeAll(): Promise<void> {
    this.#dropAllLocal();
    if (!this.#l2) return;
    try {
      if (!this.#l2.up) throw new Error('down');
      await this.#l2.purgeAll();
      await this.#l2.publish({ origin: this.#origin, all: true });
    } catch {
      this.#pendingAll = true;
      this.#retryLater();
    }
  }

  #onMessage(m: InvalidationMessage): void {
    if (m.origin === this.#origin) return;
    const tags = Array.isArray(m.tags) ? m.tags.filter((t) => typeof t === 'string') : [];
    // What Redis holds of these tags may have been stored after the writer cleaned it, by a load that read the old
    // record before the write (here or on a third instance, which did not know of the write yet): a copy stored
    // before this message arrived is not taken as fresh (a refill reads WordPress instead). Without this, such a copy
    // was served as fresh here until its TTL.
    this.#drops.note(m.all ? null : tags);
    if (m.all) this.#dropAllLocal();
    else this.#dropLocal(tags);
    for (const fn of this.#remote) fn(m.all ? null : tags);
  }

  readonly #remote: Array<(tags: string[] | null) => void> = [];

  /**
   * Called after another instance's invalidation reached this one (`null`: it purged everything), with the tags it
   * named and whether it dropped softly (SOFT_TAG).
   */
  onRemoteInvalidate(fn: (tags: string[] | null, soft: boolean) => void): void {
    this.#remote.push((tags) =>
      tags === null
        ? fn(null, false)
        : fn(
            tags.filter((t) => !isMarker(t)),
            isSoft(tags),
          ),
    );
  }

  /**
   * Stops storing answers with these tags (in either tier) until the returned release is called, which also drops
   * what L1 holds of them. For the time this instance's index lags behind a change another instance announced:
   * what it builds meanwhile is served but never shared.
   */
  hold(tags: string[], opts: { soft?: boolean } = {}): () => void {
    return this.#holds.hold(tags, (released) =>
      this.#dropLocal(opts.soft ? [...released, SOFT_TAG] : released),
    );
  }

  /** Drops L1 entries of these tags in this instance only (Redis and other instances already know); `soft` as in `invalidate`. */
  dropLocal(tags: string[], opts: { soft?: boolean } = {}): void {
    this.#dropLocal(opts.soft ? [...tags, SOFT_TAG] : tags);
  }

  /** After an outage: what was invalidated meanwhile may still sit in Redis and in other instances' L1. */
  async #replay(): Promise<void> {
    if (this.#pendingAll) {
      this.#pendingAll = false;
      this.#pending.clear();
      await this.#purgeAll();
      return;
    }
    if (this.#pending.size === 0) return;
    const tags = [...this.#pending];
    this.#pending.clear();
    // The CDN was purged when these were invalidated; only Redis and the peers missed them.
    await this.#invalidate(tags);
  }

  /** The shared tier: `off` without REDIS_URL, else whether Redis answers now. */
  get redis(): 'off' | 'up' | 'down' {
    if (!this.#l2) return 'off';
    return this.#l2.up ? 'up' : 'down';
  }

  /** What this instance read of the invalidation stream: entries, of which replayed after a reconnect, and gaps. */
  get stream(): { read: number; replayed: number; gaps: number; started: boolean } | undefined {
    return this.#l2 && { ...this.#l2.stream.stats };
  }

  /**
   * Entries and bytes held in L1, what they keep beside their bodies included (for tests, the purge endpoint's answer
   * and the status route), and how many of the entries are softly invalidated (held only until their refill).
   */
  get size(): { entries: number; bytes: number; softStale: number } {
    const bytes = this.#l1.calculatedSize + this.#beside.bytes;
    return { entries: this.#l1.size, bytes, softStale: this.#soft.size };
  }
}
