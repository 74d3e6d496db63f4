// What the changes an index found upstream alter, gathered until they are reported together to the cache.

import { linkTags } from '../cache/links.ts';
import { softChange } from '../cache/soft.ts';
import type { IndexedEvent } from './columns/rows.ts';

/** Ids of a poll's changes reported at once, at most: a poll of 2000 changes reports once. */
const REPORT_BATCH = 4096;

/** The `links:*` tags of the linked lists the noted changes alter, and whether any took an event out of public view. */
export class UpstreamChanges {
  readonly #onChange: (ids: number[], links: string[], soft: boolean) => void;
  /** A change noted since the last report took an event out of public view. */
  #hid = false;
  /** `links:*` tags of the changes noted since the last report. */
  readonly #links = new Set<string>();
  /** Ids reported at once, at most. */
  readonly #batch: number;

  constructor(onChange: (ids: number[], links: string[], soft: boolean) => void, batch = REPORT_BATCH) {
    this.#onChange = onChange;
    this.#batch = batch;
  }

  /** An event about to change from `old` to `next` (either absent: added or gone). */
  note(old: IndexedEvent | undefined, next: IndexedEvent | undefined): void {
    for (const t of linkTags(old, next)) this.#links.add(t);
    if (!softChange(old, next)) this.#hid = true;
  }

  /** Ids changed by a poll under way (see {@link add}), and how many it changed in all so far. */
  #pending: number[] = [];
  #added = 0;

  /**
   * An id a poll changed: reported with the others at {@link flush}, or once REPORT_BATCH are waiting (a poll in
   * which every event of a large site changed grew one list of a million ids, one of whose growths, in one task,
   * stalled the event loop for 20 ms).
   */
  add(id: number): void {
    this.#pending.push(id);
    this.#added++;
    if (this.#pending.length >= this.#batch) this.#reportPending();
  }

  /** Reports the ids added since the last report, if any; how many were added since the last flush. */
  flush(): number {
    if (this.#pending.length) this.#reportPending();
    const n = this.#added;
    this.#added = 0;
    return n;
  }

  #reportPending(): void {
    const ids = this.#pending;
    this.#pending = [];
    this.report(ids);
  }

  /** Tells `onChange` of `ids` with what was noted since the last report, and starts over. */
  report(ids: number[]): void {
    const links = [...this.#links];
    this.#links.clear();
    const soft = !this.#hid;
    this.#hid = false;
    this.#onChange(ids, links, soft);
  }
}
