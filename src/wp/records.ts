// Public copies of events, venues, organizers and images: what WordPress answered an anonymous read, so a list miss
// asks WordPress only for the records it does not hold.
import { LRUCache } from 'lru-cache';
import { countBound, EXACT_CLOCK } from '../cache/count-bound.ts';
import { TagIndex } from '../cache/tag-index.ts';
import type { WpMedia, WpPost } from './types.ts';

/** Events, venues, organizers and attachments (images): each leaves with its tags (`event:<id>`, …), else the TTL. */
export type RecordKind = 'event' | 'venue' | 'organizer' | 'media';
type Stored = WpPost | WpMedia;

interface Held {
  record: Stored;
  tags: string[];
}

/**
 * Holds only what WordPress returned to an anonymous read (or, for a write the gateway made, the public part of its
 * answer: src/events/held.ts), keyed by kind, language and id. Entries leave with the response cache's tags: their
 * own (`venue:<id>`, `event:<id>`, `media:<id>`) and those they were stored with (an event's terms, venue, organizers
 * and image), so a change made through the gateway or notified by WordPress drops them in every instance; the TTL
 * bounds staleness when no notification comes. A record read before a drop of one of its tags is not stored after it
 * (`mark`, then `set(…, {since})`).
 */
export class RecordCache {
  readonly #lru: LRUCache<string, Held>;
  readonly #byTag = new TagIndex();
  #seq = 0;
  #purgedAt = 0;
  /** tag → sequence number of its last drop (cleared past 100k tags: every older read then counts as raced). */
  readonly #droppedAt = new Map<string, number>();

  constructor(ttlMs: number, max = 20_000) {
    // `max` records, none of their room allocated up front (countBound: 4.5 ms of the start's task with lru-cache's `max`).
    this.#lru = new LRUCache<string, Held>({
      ...countBound(max),
      ttl: ttlMs,
      ...EXACT_CLOCK,
      dispose: (h, key) => this.#byTag.remove(key, h.tags),
    });
  }

  static key(kind: RecordKind, language: string, id: number): string {
    return `${kind}:${id}|${language}`;
  }

  get<T extends Stored = WpPost>(kind: RecordKind, language: string, id: number): T | undefined {
    return this.#lru.get(RecordCache.key(kind, language, id))?.record as T | undefined;
  }

  /** Where the drops are now: a read started here is stored only if none of its tags dropped since. */
  mark(): number {
    return this.#seq;
  }

  /**
   * Keeps `post` (tagged with its own tag and `tags`). `since`: the mark taken before it was read; a drop of one of
   * its tags after that mark refuses it (the copy may predate the change). Answers whether it was kept.
   */
  set(
    kind: RecordKind,
    language: string,
    post: Stored,
    opts: { tags?: string[]; since?: number } = {},
  ): boolean {
    const tags = [`${kind}:${post.id}`, ...(opts.tags ?? [])];
    if (opts.since !== undefined && this.#raced(tags, opts.since)) return false;
    const key = RecordCache.key(kind, language, post.id);
    this.#lru.delete(key);
    this.#lru.set(key, { record: post, tags });
    this.#byTag.add(key, tags);
    return true;
  }

  #raced(tags: string[], since: number): boolean {
    if (since === this.#seq) return false;
    if (since < this.#purgedAt) return true;
    for (const t of tags) if ((this.#droppedAt.get(t) ?? 0) > since) return true;
    return false;
  }

  /** Drops the records carrying one of the invalidation tags; `null` drops everything. */
  drop(tags: string[] | null): void {
    const seq = ++this.#seq;
    if (tags === null || this.#droppedAt.size > 100_000) {
      this.#droppedAt.clear();
      this.#purgedAt = seq;
    }
    if (tags === null) {
      // The tag index emptied first, whole: each record's dispose then finds it empty (20k records one by one held
      // the loop 6–12 ms).
      this.#byTag.clear();
      this.#lru.clear();
      return;
    }
    for (const t of tags) {
      this.#droppedAt.set(t, seq);
      for (const key of this.#byTag.take(t)) this.#lru.delete(key);
    }
  }

  get size(): number {
    return this.#lru.size;
  }
}
