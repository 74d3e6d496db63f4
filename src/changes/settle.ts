// Reads that may have caught a save half done wait before they are logged (src/wp/saves.ts). A poll that read an
// event between its row and its meta saw it published without its dates (a create) or with its old ones (an update),
// and the ledger took that as a version of its own: the save was logged twice (`created`, then `updated` once the
// write's own observation came). So what a poll, a reconciliation or an index's re-read saw of a post modified in the
// last seconds is held for SAVE_SETTLE_MS, then read again; sources that read after a save has ended (a write's own
// answer, the companion plugin's notification, sent at the end of WordPress's request) log at once.
import { maySaveStill, SAVE_SETTLE_MS } from '../wp/saves.ts';
import type { Observation } from './ledger.ts';
import type { ChangeKind } from './types.ts';

/**
 * Whether what a read saw of a record is held (SAVE_SETTLE_MS) before it is logged. Deletions and terms are never
 * half saves (a trash is one update of the row; a term's fields are its rows'). Pure.
 */
export function heldBack(o: Observation, nowMs: number): boolean {
  return o.version !== null && o.order !== '' && maySaveStill(o.order, nowMs);
}

/** Records held, by kind: each one's newest order read. */
type Held = Map<ChangeKind, Map<number, string>>;

/**
 * The records held and their timers. `recheck` reads them again once their wait is over; it must not throw (the
 * recorder logs its own failures).
 */
export class Settling {
  readonly #recheck: (kind: ChangeKind, held: Map<number, string>) => Promise<void>;
  /** `kind:id` → the order of the newest read held, so that a record read by every poll is re-read once. */
  readonly #pending = new Map<string, string>();
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(recheck: (kind: ChangeKind, held: Map<number, string>) => Promise<void>) {
    this.#recheck = recheck;
  }

  /** How many records wait. */
  get size(): number {
    return this.#pending.size;
  }

  /** Holds the observations that must wait (one timer for them all); returns the ones to log now. */
  hold(observations: readonly Observation[]): Observation[] {
    const nowMs = Date.now();
    const now: Observation[] = [];
    const held: Held = new Map();
    for (const o of observations) {
      if (!heldBack(o, nowMs)) {
        now.push(o);
        continue;
      }
      const key = `${o.kind}:${o.id}`;
      const pending = this.#pending.get(key);
      // Already held at this save or a newer one: its re-read will see this one's state or a later.
      if (pending !== undefined && pending >= o.order) continue;
      this.#pending.set(key, o.order);
      const byId = held.get(o.kind) ?? new Map<number, string>();
      byId.set(o.id, o.order);
      held.set(o.kind, byId);
    }
    if (held.size) this.#schedule(held);
    return now;
  }

  #schedule(held: Held): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      for (const [kind, byId] of held) {
        // Only the newest hold of a record reads it again (a later poll may have held a newer save meanwhile).
        for (const [id, order] of byId) {
          const key = `${kind}:${id}`;
          if (this.#pending.get(key) === order) this.#pending.delete(key);
          else byId.delete(id);
        }
        if (byId.size) void this.#recheck(kind, byId);
      }
    }, SAVE_SETTLE_MS);
    timer.unref();
    this.#timers.add(timer);
  }

  /** Drops every hold (the recorder stops: the next start's reconciliation logs what they would have). */
  stop(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    this.#pending.clear();
  }
}
