// What the changes an index found upstream alter, gathered until they are reported together to the cache.

import { linkTags } from '../cache/links.ts';
import { softChange } from '../cache/soft.ts';
import type { IndexedEvent } from './columns/rows.ts';

/** The `links:*` tags of the linked lists the noted changes alter, and whether any took an event out of public view. */
export class UpstreamChanges {
  readonly #onChange: (ids: number[], links: string[], soft: boolean) => void;
  /** A change noted since the last report took an event out of public view. */
  #hid = false;
  /** `links:*` tags of the changes noted since the last report. */
  readonly #links = new Set<string>();

  constructor(onChange: (ids: number[], links: string[], soft: boolean) => void) {
    this.#onChange = onChange;
  }

  /** An event about to change from `old` to `next` (either absent: added or gone). */
  note(old: IndexedEvent | undefined, next: IndexedEvent | undefined): void {
    for (const t of linkTags(old, next)) this.#links.add(t);
    if (!softChange(old, next)) this.#hid = true;
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
