// Keeps cached answers and event indexes in step: index changes invalidate tags; remote invalidations refresh indexes.
import type { IndexRegistry } from '../index/registry.ts';
import { ALL_LINK_TAGS } from './links.ts';
import type { ResponseCache } from './response-cache.ts';
import { tag } from './tags.ts';

export const eventTags = (ids: number[]): string[] => [tag.list('event'), ...ids.map(tag.event)];

/** Event ids named by `event:<id>` tags. */
export const eventIdsOf = (tags: string[]): number[] =>
  tags.flatMap((t) => (/^event:\d+$/.test(t) ? [Number(t.slice(6))] : []));

export class Freshness {
  readonly #cache: ResponseCache;
  #indexes: IndexRegistry | undefined;
  /** Refreshes running because another instance told us: what they find is already invalidated everywhere. */
  #remote = 0;

  constructor(cache: ResponseCache) {
    this.#cache = cache;
    cache.onRemoteInvalidate((tags, soft) => {
      this.#onRemote(tags, soft).catch(() => {});
    });
  }

  /** The registry is built after the cache (its onChange calls `indexChanged`). */
  attach(indexes: IndexRegistry): void {
    this.#indexes = indexes;
  }

  /**
   * The index saw events change upstream (poll, refetch, reconciliation), altering the `links` lists; `soft`: none of
   * the changes took an event out of public view (the index held it before and sees it after), so readers may keep
   * the previous answers while they refill.
   */
  indexChanged(ids: number[], links: readonly string[] = [], soft = false): void {
    const tags = [...eventTags(ids), ...links];
    if (this.#remote > 0) this.#cache.dropLocal(tags, { soft });
    else this.#cache.invalidate(tags, { soft }).catch(() => {});
  }

  /**
   * Another instance wrote or was notified: its index is current, ours is not. Re-read the named events (or poll);
   * until then, lists built from our old index are served but not stored, and dropped from L1 afterwards.
   */
  async #onRemote(tags: string[] | null, soft: boolean): Promise<void> {
    const indexes = this.#indexes?.all() ?? [];
    if (indexes.length === 0) return;
    if (tags !== null && !tags.some((t) => t === tag.list('event') || t.startsWith('event:'))) return;
    const ids = tags ? eventIdsOf(tags) : [];
    // The linked lists too: which venues have events is answered from the index that lags.
    // Released as the announcement dropped: softly only when it was soft (src/cache/soft.ts).
    const release = this.#cache.hold([tag.list('event'), ...ALL_LINK_TAGS, ...ids.map(tag.event)], { soft });
    this.#remote++;
    try {
      await Promise.all(indexes.map((i) => (ids.length ? i.refetch(ids) : i.refresh()).catch(() => {})));
    } finally {
      this.#remote--;
      release();
    }
  }
}
