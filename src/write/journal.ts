// The undo journal: the entries of writes in progress or left to undo, in a Redis hash shared by every instance
// (a process's memory without Redis), each renewed while its write runs and taken by a sweep once its lease runs out.
import type { SharedRedis } from '../shared-redis.ts';
import { Undo } from './undo.ts';

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

/** The meta a create sends: the write's token, or nothing where the site does not register it. */
export type Stamp = Record<string, string>;

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
