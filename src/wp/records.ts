// Public copies of venues, organizers and images for embedding in events, so a list miss costs one upstream read.
import { LRUCache } from 'lru-cache';
import type { WpMedia, WpPost } from './types.ts';

/** Venues, organizers and attachments (images) leave with their tags (`media:<id>`), else with the TTL. */
export type RecordKind = 'venue' | 'organizer' | 'media';
type Stored = WpPost | WpMedia;

/**
 * Holds only what WordPress returned to an anonymous read, keyed by kind, language and id. Entries leave with
 * the response cache's tags (`venue:<id>`, `organizer:<id>`), so a change made through the gateway or notified by
 * WordPress drops them in every instance; the TTL bounds staleness when no notification comes.
 */
export class RecordCache {
  readonly #lru: LRUCache<string, Stored>;

  constructor(ttlMs: number, max = 5000) {
    this.#lru = new LRUCache<string, Stored>({ max, ttl: ttlMs });
  }

  static key(kind: RecordKind, language: string, id: number): string {
    return `${kind}:${id}|${language}`;
  }

  get<T extends Stored = WpPost>(kind: RecordKind, language: string, id: number): T | undefined {
    return this.#lru.get(RecordCache.key(kind, language, id)) as T | undefined;
  }

  set(kind: RecordKind, language: string, post: Stored): void {
    this.#lru.set(RecordCache.key(kind, language, post.id), post);
  }

  /** Drops the records named by invalidation tags; `null` drops everything. */
  drop(tags: string[] | null): void {
    if (tags === null) {
      this.#lru.clear();
      return;
    }
    const wanted = new Set(tags.filter((t) => /^(?:venue|organizer|media):/.test(t)));
    if (wanted.size === 0) return;
    for (const key of [...this.#lru.keys()])
      if (wanted.has(key.slice(0, key.indexOf('|')))) this.#lru.delete(key);
  }
}
