// The event index snapshot in Redis, and the crawl lock: a new instance warms from the snapshot, one crawls at a time.
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import type { IndexSnapshot } from './event-index.ts';

export interface SnapshotStore {
  load(language: string): Promise<IndexSnapshot | null>;
  save(snapshot: IndexSnapshot): Promise<void>;
  /**
   * Runs `crawl` holding the crawl lock of a language; while another instance holds it, waits for it to finish and
   * resolves `'snapshot'` (load the snapshot it saved). Never blocks forever: the lock expires.
   */
  crawlOnce(language: string, crawl: () => Promise<void>): Promise<'crawled' | 'snapshot'>;
}

export interface RedisSnapshotOptions {
  /** Key prefix, shared with the response cache (`cg:`). */
  prefix: string;
  /** How long a crawl may hold the lock before another instance may take over. Default 5 min. */
  lockMs?: number;
  /** How often a waiting instance looks for the snapshot. Default 250 ms. */
  waitStepMs?: number;
  /** Whether Redis is reachable now; when not, every instance crawls for itself. */
  up: () => boolean;
  /** Waits (briefly) for the first connection, so a starting instance does not crawl just because it is early. */
  waitUp?: () => Promise<unknown>;
}

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export class RedisSnapshotStore implements SnapshotStore {
  readonly #redis: Redis;
  readonly #o: Required<RedisSnapshotOptions>;

  constructor(redis: Redis, o: RedisSnapshotOptions) {
    this.#redis = redis;
    this.#o = { lockMs: 300_000, waitStepMs: 250, waitUp: async () => {}, ...o };
  }

  #key = (language: string) => `${this.#o.prefix}index:${language}`;
  #lock = (language: string) => `${this.#o.prefix}index-lock:${language}`;

  async load(language: string): Promise<IndexSnapshot | null> {
    await this.#o.waitUp?.();
    if (!this.#o.up()) return null;
    try {
      const buf = await this.#redis.getBuffer(this.#key(language));
      if (!buf) return null;
      const s = JSON.parse(gunzipSync(buf).toString('utf8')) as IndexSnapshot;
      return s.language === language && Array.isArray(s.facets) ? s : null;
    } catch {
      return null;
    }
  }

  async save(snapshot: IndexSnapshot): Promise<void> {
    if (!this.#o.up()) return;
    // Facets compress ~10×: 2000 events are tens of KB, read once per new instance.
    await this.#redis.set(this.#key(snapshot.language), gzipSync(JSON.stringify(snapshot))).catch(() => {});
  }

  async crawlOnce(language: string, crawl: () => Promise<void>): Promise<'crawled' | 'snapshot'> {
    const token = `${process.pid}:${Math.random().toString(36).slice(2)}`;
    for (;;) {
      if (!this.#o.up()) {
        await crawl();
        return 'crawled';
      }
      const got = await this.#redis
        .set(this.#lock(language), token, 'PX', this.#o.lockMs, 'NX')
        .catch(() => null);
      if (got === 'OK') {
        try {
          await crawl();
          return 'crawled';
        } finally {
          await this.#redis.eval(RELEASE, 1, this.#lock(language), token).catch(() => {});
        }
      }
      // Someone else crawls: wait until their lock is gone, then use their snapshot (or crawl if they failed).
      while (this.#o.up() && (await this.#redis.exists(this.#lock(language)).catch(() => 0))) {
        await new Promise((r) => setTimeout(r, this.#o.waitStepMs));
      }
      if (await this.load(language)) return 'snapshot';
    }
  }
}
