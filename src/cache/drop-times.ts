// When this instance last dropped each tag, or everything: a copy Redis holds from before is not taken as fresh.
import type { CacheEntry } from './entry.ts';

export class DropTimes {
  readonly #now: () => number;
  /** Names that are no tags (the soft and hard markers), never noted. */
  readonly #skip: (tag: string) => boolean;
  /** tag → time of this instance's last own invalidation of it, or of another's reaching it. */
  readonly #at = new Map<string, number>();
  /** Time of the last purge of everything. */
  #all = Number.NEGATIVE_INFINITY;

  constructor(now: () => number, skip: (tag: string) => boolean) {
    this.#now = now;
    this.#skip = skip;
  }

  /** Notes the time of a drop: of these tags, or of everything (`null`). */
  note(tags: readonly string[] | null): void {
    const now = this.#now();
    if (tags === null) {
      this.#all = now;
      return;
    }
    if (this.#at.size > 100_000) this.#at.clear();
    for (const t of tags) if (!this.#skip(t)) this.#at.set(t, now);
  }

  /**
   * A copy in Redis filled before this instance's own invalidation of one of its tags, or before another instance's
   * announcement of one reached it: it drops its L1 before Redis, so a refill in between could otherwise bring the
   * dropped answer back as fresh; and a load that read the old record may store it in Redis after the writer cleaned
   * Redis, before the announcement reached the instance that made it. Local drops (`dropLocal`) do not count.
   */
  olderThanDrop(e: Pick<CacheEntry, 'storedAt' | 'tags'>): boolean {
    if (e.storedAt <= this.#all) return true;
    for (const t of e.tags) if (e.storedAt <= (this.#at.get(t) ?? Number.NEGATIVE_INFINITY)) return true;
    return false;
  }
}
