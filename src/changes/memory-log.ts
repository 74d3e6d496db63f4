// The change log in this process's memory (no Redis): one instance only, and lost on restart (documented).
import { randomBytes } from 'node:crypto';
import { nextSlice as nextTurn } from '../pace/turns.ts';
import { changeOf, decide, type Observation, stateOf } from './ledger.ts';
import { ShardedMap } from './sharded-map.ts';
import { type ChangeStore, compareIds, type LedgerPage } from './store.ts';
import type { Change, ChangeKind, LoggedChange } from './types.ts';

export interface LogContext {
  /** The API root of the default language (`rest_url` of logged changes). */
  apiRoot: string;
  taxonomy: Record<'category' | 'tag', string>;
  retentionMs: number;
  now?: () => Date;
}

/** Ledger entries a seed fills between two turns of the event loop (about 1 ms warm). */
const SEED_SLICE = 2_500;

export class MemoryChangeLog implements ChangeStore {
  readonly retentionMs: number;
  readonly taxonomy: Record<'category' | 'tag', string>;
  readonly #ctx: LogContext;
  readonly #epoch = randomBytes(6).toString('base64url');
  readonly #entries: LoggedChange[] = [];
  /** Each kind's ledger: split by id (a single Map of 100k ids rehashed them all in one task as it grew). */
  readonly #ledger = new Map<ChangeKind, ShardedMap<string>>();
  readonly #seeded = new Set<ChangeKind>();
  readonly #listeners = new Set<(c: LoggedChange) => void>();
  #lastMs = 0;
  #seq = 0;
  /** The newest id trimmed away (`'0'`: none). */
  #trimmed = '0';
  /** A scan's ids in order, made when it starts (cursor `'0'`) and read by its later pages. */
  readonly #scans = new Map<ChangeKind, Int32Array>();

  constructor(ctx: LogContext) {
    this.#ctx = ctx;
    this.retentionMs = ctx.retentionMs;
    this.taxonomy = ctx.taxonomy;
  }

  #now(): Date {
    return this.#ctx.now?.() ?? new Date();
  }

  async epoch(): Promise<string> {
    return this.#epoch;
  }

  #ledgerOf(kind: ChangeKind): ShardedMap<string> {
    let m = this.#ledger.get(kind);
    if (!m) {
      m = new ShardedMap();
      this.#ledger.set(kind, m);
    }
    return m;
  }

  /** The next id, as Redis makes them: the time in ms, and a sequence within it. */
  #nextId(): string {
    const ms = Math.max(this.#now().getTime(), this.#lastMs);
    this.#seq = ms === this.#lastMs ? this.#seq + 1 : 0;
    this.#lastMs = ms;
    return `${ms}-${this.#seq}`;
  }

  #push(change: Change & { was_public?: boolean }): LoggedChange {
    this.#trim();
    const logged: LoggedChange = { ...change, cursor: this.#nextId() };
    this.#entries.push(logged);
    for (const l of this.#listeners) l(logged);
    return logged;
  }

  /** Drops what is older than the retention (the MINID trimming of the Redis log). */
  #trim(): void {
    const min = this.#now().getTime() - this.retentionMs;
    let n = 0;
    while (n < this.#entries.length && Number(this.#entries[n]!.cursor.split('-')[0]) < min) n++;
    if (n === 0) return;
    this.#trimmed = this.#entries[n - 1]!.cursor;
    this.#entries.splice(0, n);
  }

  async append(change: Change): Promise<LoggedChange> {
    return this.#push(change);
  }

  async observe(o: Observation): Promise<LoggedChange | null> {
    const ledger = this.#ledgerOf(o.kind);
    const d = decide(ledger.get(o.id), o);
    if (!d) return null;
    ledger.set(o.id, d.state);
    if (d.action === null) return null;
    return this.#push(changeOf(o, { ...d, action: d.action }, { ...this.#ctx, now: this.#now() }));
  }

  async read(cursor: string, limit: number): Promise<LoggedChange[]> {
    this.#trim();
    const out: LoggedChange[] = [];
    // Entries are in id order: find the first after the cursor by bisection.
    let lo = 0;
    let hi = this.#entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareIds(this.#entries[mid]!.cursor, cursor) <= 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.#entries.length && out.length < limit; i++) out.push(this.#entries[i]!);
    return out;
  }

  follow(listener: (change: LoggedChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async head(): Promise<string> {
    return this.#entries.at(-1)?.cursor ?? this.#trimmed;
  }

  async expired(cursor: string): Promise<boolean> {
    this.#trim();
    return compareIds(cursor, this.#trimmed) < 0;
  }

  async scan(kind: ChangeKind, cursor: string, count: number): Promise<LedgerPage> {
    const ledger = this.#ledgerOf(kind);
    // Ids in order, from the one after `cursor` (the last id of the previous page): sorted once a scan, not once a
    // page (a scan of 100k ids a page at a time would sort them a hundred times). An id added during the scan may be
    // missed and one removed is passed over, as HSCAN allows.
    let ids = this.#scans.get(kind);
    if (cursor === '0' || !ids) {
      ids = Int32Array.from(ledger.keys()).sort();
      this.#scans.set(kind, ids);
    }
    const after = Number(cursor);
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ids[mid]! <= after) lo = mid + 1;
      else hi = mid;
    }
    const entries: Array<[number, string]> = [];
    let i = lo;
    for (; i < ids.length && entries.length < count; i++) {
      const state = ledger.get(ids[i]!);
      if (state !== undefined) entries.push([ids[i]!, state]);
    }
    const done = i >= ids.length;
    if (done) this.#scans.delete(kind);
    return { entries, next: done || entries.length === 0 ? '0' : String(entries.at(-1)![0]) };
  }

  async states(kind: ChangeKind, ids: number[]): Promise<Array<string | undefined>> {
    const ledger = this.#ledgerOf(kind);
    return ids.map((id) => ledger.get(id));
  }

  async seeded(kind: ChangeKind): Promise<boolean> {
    return this.#seeded.has(kind);
  }

  async seed(kind: ChangeKind, observations: Observation[]): Promise<void> {
    // A large site's first start fills 100k entries: a few thousand a turn of the event loop.
    const entries: Array<readonly [number, string]> = [];
    for (let i = 0; i < observations.length; i++) {
      if (i > 0 && i % SEED_SLICE === 0) await nextTurn();
      const o = observations[i]!;
      entries.push([o.id, stateOf(o)]);
    }
    await this.#ledgerOf(kind).fill(entries, SEED_SLICE, true);
  }

  async markSeeded(kind: ChangeKind): Promise<void> {
    this.#seeded.add(kind);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
