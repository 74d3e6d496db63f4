// The undo journal: each write's record of what it made (Undo) and the entries of writes in progress or left to
// undo, in a Redis hash shared by every instance (a process's memory without Redis), each renewed while its write
// runs and taken by a sweep once its lease runs out.
import { randomUUID } from 'node:crypto';
import { ApiError, aborted } from '../http/errors.ts';
import type { IndexRegistry } from '../index/registry.ts';
import type { LinkedCatalog } from '../linked/catalog.ts';
import type { Logger } from '../log.ts';
import type { Mapping } from '../mapping/schema.ts';
import type { SharedRedis } from '../shared-redis.ts';
import type { WpClient, WpResponse } from '../wp/client.ts';
import { type SiteFacts, WRITE_META } from '../wp/probe.ts';
import type { TermCache } from '../wp/terms.ts';

export interface UndoStep {
  restBase: string;
  id: number;
}

export const stepKey = (s: UndoStep) => `${s.restBase}:${s.id}`;

/** A create whose answer was lost: whatever it made in `restBase` carries the write's token. */
export interface UndoProbe {
  restBase: string;
  /** When its answer was lost (ms since epoch): until WordPress can no longer be carrying it out, it is looked for. */
  lostAt?: number;
}

/** A lost create not found by the time it could still land: looked for now and then until `until` (ms since epoch). */
export interface LateProbe extends UndoProbe {
  until: number;
}

/**
 * How long a create that did not land within `landsWithin` is still looked for (WordPress may finish a request long
 * after the gateway stopped waiting: a PHP worker stuck on a lock, a slow upload), and how often.
 */
export const LATE_WATCH_MS = 60 * 60_000;
export const LATE_CHECK_MS = 60_000;

/** The meta a create sends: the write's token, or nothing where the site does not register it. */
export type Stamp = Record<string, string>;

/** A record a write changed (not made), and how to put it back (applied by src/write/restore.ts). */
export interface UndoRestore {
  restBase: string;
  id: number;
  /** What the write set: wp/v2 body keys (`meta` by key). `status: 'trash'` for a move to the trash. */
  wrote: Record<string, unknown>;
  /** The wp/v2 body that puts back what `wrote` changed. */
  put: Record<string, unknown>;
}

export interface Entry {
  posts: UndoStep[];
  terms: UndoStep[];
  probes: UndoProbe[];
  /** The record an update writes to: whatever it links to after all is kept. */
  target?: UndoStep;
  /** Events this undo removed already (the event index may list them a little longer). */
  gone?: number[];
  /** What the write links to without having made it (a claim): another write's rollback leaves it. */
  uses?: UndoStep[];
  /** What this undo is about to delete: a write that would link to it backs off. */
  removing?: UndoStep[];
  /** Lost creates past the time they could land, still looked for (see {@link LATE_WATCH_MS}). */
  late?: LateProbe[];
  /** Records the write changed, and how to put each back (src/write/restore.ts). */
  restores?: UndoRestore[];
  /** When a sweep may take the entry (ms since epoch): a live write keeps pushing it ahead. */
  due: number;
}

/** An entry of a write in progress is renewed every third of this; the entry of a dead process is due after it. */
export const UNDO_LEASE_MS = 10_000;

/** The entries of writes in progress or left to undo: a Redis hash when configured and up, else this process. */
export class UndoJournal {
  readonly #memory = new Map<string, Entry>();
  readonly #redis?: SharedRedis;
  /** Writes in progress in this process: their entries are renewed every third of the lease. */
  readonly #live = new Set<Undo>();
  #beat?: NodeJS.Timeout;
  /** How long an entry of a write in progress stays out of sweeps without a heartbeat (its process died). */
  readonly leaseMs: number;

  constructor(redis?: SharedRedis, leaseMs = UNDO_LEASE_MS) {
    this.#redis = redis;
    this.leaseMs = leaseMs;
  }

  /** `undo` runs (true) or ended (false); while any runs, a heartbeat keeps their entries from sweeps. */
  live(undo: Undo, running: boolean): void {
    if (running) this.#live.add(undo);
    else this.#live.delete(undo);
    if (this.#live.size && !this.#beat) {
      this.#beat = setInterval(() => {
        for (const u of this.#live) void u.save();
      }, this.leaseMs / 3);
      this.#beat.unref();
    } else if (!this.#live.size && this.#beat) {
      clearInterval(this.#beat);
      this.#beat = undefined;
    }
  }

  get #key() {
    return `${this.#redis?.prefix ?? ''}undo`;
  }

  /** A new write; `stamped`: its creates carry its token (the site registers WRITE_META). */
  begin(stamped = true): Undo {
    return new Undo(this, undefined, undefined, stamped);
  }

  /** The write of an entry taken by `due`, to undo again (its id is its token). */
  resume(id: string, e: Entry): Undo {
    return new Undo(this, id, e);
  }

  async put(id: string, entry: Entry): Promise<void> {
    const r = this.#redis;
    if (r?.up()) {
      try {
        await r.cmd.hset(this.#key, id, JSON.stringify(entry));
        this.#memory.delete(id);
        return;
      } catch {
        // Redis went away mid-call: this process keeps the entry.
      }
    }
    this.#memory.set(id, entry);
  }

  /** Lets other instances' sweeps take `id` again when it is due (its sweep here is over for now). */
  async release(id: string): Promise<void> {
    const r = this.#redis;
    if (r?.up()) await r.cmd.del(`${this.#key}:claim:${id}`).catch(() => {});
  }

  async drop(id: string): Promise<void> {
    this.#memory.delete(id);
    const r = this.#redis;
    if (r?.up()) await r.cmd.hdel(this.#key, id).catch(() => {});
  }

  /** Entries due now, each claimed for `holdMs` (another instance's sweep skips it meanwhile). */
  async due(now: number, holdMs = 30_000): Promise<Array<[string, Entry]>> {
    const out: Array<[string, Entry]> = [];
    for (const [id, e] of this.#memory) {
      if (e.due > now) continue;
      this.#memory.set(id, { ...e, due: now + holdMs });
      out.push([id, e]);
    }
    const r = this.#redis;
    if (!r?.up()) return out;
    try {
      const all = await r.cmd.hgetall(this.#key);
      for (const [id, text] of Object.entries(all)) {
        const e = JSON.parse(text) as Entry;
        if (e.due > now) continue;
        const mine = await r.cmd.set(`${this.#key}:claim:${id}`, '1', 'PX', holdMs, 'NX');
        if (mine === 'OK') out.push([id, e]);
      }
    } catch {
      // Redis away: its entries wait for the next sweep.
    }
    return out;
  }

  /** Every entry but `except`'s: this process's and, when Redis is up, every instance's (rejects when it fails). */
  async #entries(except?: string): Promise<Entry[]> {
    const out = [...this.#memory].flatMap(([id, e]) => (id === except ? [] : [e]));
    const r = this.#redis;
    if (r?.up()) {
      const all = await r.cmd.hgetall(this.#key);
      for (const [id, text] of Object.entries(all)) if (id !== except) out.push(JSON.parse(text) as Entry);
    }
    return out;
  }

  /** Ids of `restBase` that entries hold to remove: not to be offered for reuse (an upload found by its URL). */
  async pending(restBase: string, except?: string): Promise<Set<number>> {
    const out = new Set<number>();
    for (const e of await this.#entries(except).catch(() => []))
      for (const s of e.posts) if (s.restBase === restBase) out.add(s.id);
    return out;
  }

  /**
   * The tokens of the other entries still looking for a lost create of `restBase`: a record carrying one of them is
   * that write's to remove once found (an upload whose answer was lost), not a record to reuse.
   */
  async probing(restBase: string, except?: string): Promise<Set<string>> {
    const out = new Set<string>();
    const take = (id: string, e: Entry) => {
      if (id !== except && [...e.probes, ...(e.late ?? [])].some((p) => p.restBase === restBase)) out.add(id);
    };
    for (const [id, e] of this.#memory) take(id, e);
    const r = this.#redis;
    if (r?.up()) {
      const all = await r.cmd.hgetall(this.#key).catch(() => ({}) as Record<string, string>);
      for (const [id, text] of Object.entries(all)) take(id, JSON.parse(text) as Entry);
    }
    return out;
  }

  /**
   * What the other entries claim (`uses`: writes linking to records they did not make) and are about to delete
   * (`removing`), as `restBase:id` keys. Read after writing one's own claims or removals (see {@link Undo.claim}).
   */
  async others(except: string): Promise<{ uses: Set<string>; removing: Set<string> }> {
    const uses = new Set<string>();
    const removing = new Set<string>();
    for (const e of await this.#entries(except)) {
      for (const s of e.uses ?? []) uses.add(stepKey(s));
      for (const s of e.removing ?? []) removing.add(stepKey(s));
    }
    return { uses, removing };
  }

  /** Entries waiting (in progress or left to undo), for metrics and tests. */
  async size(): Promise<number> {
    const r = this.#redis;
    const shared = r?.up() ? await r.cmd.hlen(this.#key).catch(() => 0) : 0;
    return shared + this.#memory.size;
  }
}

/**
 * How long after its answer was lost a create may still land: WordPress had the upstream timeout to carry it out,
 * plus slack. Not finding its token before then proves nothing; the rollback waits (the sweep looks again).
 */
/**
 * What undoing a write reads and changes (the gateway's `Deps` has all of it): WordPress, the mapping and the site's
 * facts, the event indexes, the term cache and venue catalog to refresh, the response cache to drop removed events.
 */
export interface UndoDeps {
  wp: WpClient;
  mapping: Mapping;
  site: SiteFacts;
  indexes: IndexRegistry;
  log: Logger;
  terms: TermCache;
  catalog: LinkedCatalog;
  cache?: { forgetEvents(ids: readonly number[]): Promise<void> };
  undo?: UndoJournal;
}
export const landsWithin = (deps: UndoDeps): number => (deps.wp.options?.timeoutMs ?? 10_000) + 5_000;

/**
 * A write that fails now may have been carried out by WordPress: no answer, a server error, a cut body, or the
 * caller hanging up. Only a refusal (a 4xx answer) says nothing was made.
 */
export const mayHaveWritten = (err: unknown): boolean =>
  !(err instanceof ApiError && err.status < 500 && err.status !== 499);

/**
 * A lost create that WordPress may still be carrying out: one it had not finished when the gateway stopped waiting
 * (a timeout, or a call left behind). One it answered with a server error or a cut answer was over; one that could
 * not reach it, or died with it, will never land.
 */
const mayStillLand = (err: unknown): boolean =>
  !(err instanceof ApiError) || err.status === 504 || err.status === 499;

/** Whether the site registers WRITE_META, so that what the gateway creates carries its write's token. */
export const stamps = (deps: Partial<Pick<UndoDeps, 'site'>>): boolean => deps.site?.writeMeta === true;

/** A write's record: in the journal when the gateway has one. */
export const newUndo = (deps: Pick<UndoDeps, 'undo' | 'site'>): Undo =>
  deps.undo?.begin(stamps(deps)) ?? new Undo(undefined, undefined, undefined, stamps(deps));

/** One write's record of what it created. Without a journal (tests' own UndoDeps) it lives in memory only. */
export class Undo {
  readonly posts: UndoStep[] = [];
  readonly terms: UndoStep[] = [];
  readonly probes: UndoProbe[] = [];
  target?: UndoStep;
  readonly gone: number[] = [];
  /** What the write links to without having made it: see {@link claim}. */
  readonly uses: UndoStep[] = [];
  /** What its rollback is about to delete: see {@link rollback}. */
  readonly removing: UndoStep[] = [];
  /** Lost creates looked for now and then after they could have landed: see {@link LATE_WATCH_MS}. */
  readonly late: LateProbe[] = [];
  /** Records the write changed (not made): put back by a rollback before anything made is removed. */
  readonly restores: UndoRestore[] = [];
  readonly #id: string;
  readonly #journal?: UndoJournal;
  readonly #stamped: boolean;

  constructor(journal?: UndoJournal, id: string = randomUUID(), e?: Omit<Entry, 'due'>, stamped = true) {
    this.#journal = journal;
    this.#id = id;
    this.#stamped = stamped;
    if (e) {
      this.posts.push(...e.posts);
      this.terms.push(...e.terms);
      this.probes.push(...e.probes);
      this.target = e.target;
      this.gone.push(...(e.gone ?? []));
      this.late.push(...(e.late ?? []));
      this.restores.push(...(e.restores ?? []));
    }
  }

  /** The token every record this write creates carries (WRITE_META): the write's id. */
  get token(): string {
    return this.#id;
  }

  /**
   * Runs the create `send` with the meta that marks what it makes as this write's, noted first as a probe (written
   * down before WordPress sees it), then as the id it made. A refusal leaves nothing to note; a lost answer leaves
   * the probe. A caller that hung up before the create was sent sends nothing and notes nothing.
   */
  async create<T extends { id: number }>(
    kind: 'posts' | 'terms',
    restBase: string,
    send: (meta: Stamp) => Promise<WpResponse<T>>,
    signal?: AbortSignal,
  ): Promise<WpResponse<T>> {
    if (signal?.aborted) throw aborted();
    const p: UndoProbe = { restBase };
    this.probes.push(p);
    await this.save();
    const forget = () => this.probes.splice(this.probes.indexOf(p), 1);
    let res: WpResponse<T>;
    try {
      res = await send(this.#stamped ? { [WRITE_META]: this.#id } : {});
    } catch (err) {
      if (!mayHaveWritten(err)) forget();
      else if (mayStillLand(err)) p.lostAt = Date.now();
      await this.save();
      throw err;
    }
    forget();
    this[kind].push({ restBase, id: res.body.id });
    await this.save();
    return res;
  }

  /** Nothing made, nothing being made: nothing to undo. */
  get empty(): boolean {
    return (
      !this.posts.length &&
      !this.terms.length &&
      !this.probes.length &&
      !this.late.length &&
      !this.restores.length
    );
  }

  /** Nothing to keep in the journal: nothing to undo, claimed or being removed. */
  get #idle(): boolean {
    return this.empty && !this.uses.length && !this.removing.length;
  }

  /**
   * Claims `links`, the records the write is about to link to, less what it made itself; resolves to those of them
   * another write's rollback is deleting. Two writes to one shared journal, each writing down its own intent before
   * reading the other's (a claim here, a removal in {@link rollback}): whichever reads second sees the first, so a
   * rollback never deletes a record a write has claimed and found not being removed. Without a journal, or with
   * Redis down, the claim holds in this process only.
   */
  async claim(links: readonly UndoStep[]): Promise<UndoStep[]> {
    const own = new Set([...this.posts, ...this.terms].map(stepKey));
    const uses = links.filter((s) => !own.has(stepKey(s)));
    this.uses.splice(0, this.uses.length, ...uses);
    if (!this.#journal || !uses.length) return [];
    await this.save();
    // Redis failing here: the write's look at what still exists (src/events/write.ts) is what is left.
    const others = await this.#journal.others(this.#id).catch(() => undefined);
    return uses.filter((s) => others?.removing.has(stepKey(s)));
  }

  /** Writes the entry down; due after the lease (a crash), or at `due` (a failure left steps to retry). */
  async save(due?: number): Promise<void> {
    const j = this.#journal;
    if (!j) return;
    // Nothing noted: nothing to keep alive either.
    j.live(this, due === undefined && !this.#idle);
    if (this.#idle) return j.drop(this.#id);
    const { posts, terms, probes, target, gone, uses, removing, late, restores } = this;
    const entry = {
      posts,
      terms,
      probes,
      target,
      gone,
      uses,
      removing,
      ...(late.length ? { late } : {}),
      ...(restores.length ? { restores } : {}),
    };
    await j.put(this.#id, { ...entry, due: due ?? Date.now() + j.leaseMs });
    // Left for a later sweep: at its due time, not once a claim taken now runs out.
    if (due !== undefined) await j.release(this.#id);
  }

  /** `restBase:id` keys of what other writes claim (read after this undo wrote down what it is removing). */
  async claimedByOthers(): Promise<Set<string>> {
    return this.#journal ? (await this.#journal.others(this.#id)).uses : new Set();
  }

  /** The write is answered: what it made stays. */
  async done(): Promise<void> {
    this.#journal?.live(this, false);
    await this.#journal?.drop(this.#id);
  }
}
