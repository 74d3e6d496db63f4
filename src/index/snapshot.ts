// The event index snapshot in Redis, and the crawl lock: a new instance warms from the snapshot, one crawls at a time,
// and one instance (the writer) keeps the snapshot up to date.
//
// Layout: `index:<lang>` names the current generation (`{"gen", "chunks"}`); its chunks are `index:<lang>:<gen>:<i>`
// (gzip, src/index/snapshot-codec.ts). A save writes a new generation, then points to it, then deletes the old one,
// so a reader never sees half a snapshot (a reader that loses the race finds a chunk gone and tries again).
import type { RedisClient } from '../cache/redis.ts';
import { RELEASE_LOCK } from '../shared-redis.ts';
import type { EventIndex } from './event-index.ts';
import { decodeSnapshot, encodeSnapshot } from './snapshot-codec.ts';

export interface SnapshotStore {
  /** Loads the language's snapshot into an empty index; false (index left empty) when there is none to load. */
  load(language: string, into: EventIndex): Promise<boolean>;
  /**
   * Saves the index if this instance is the snapshot writer (the first to save holds the role until it stops
   * saving for `writerMs`); `force` takes the role (the instance that just crawled). Resolves whether it saved.
   */
  save(index: EventIndex, options?: { force?: boolean }): Promise<boolean>;
  /**
   * Runs `crawl` holding the crawl lock of a language; while another instance holds it, waits for it to finish and
   * resolves `'snapshot'` (load the snapshot it saved). Never blocks forever: the lock expires.
   */
  crawlOnce(language: string, crawl: () => Promise<void>): Promise<'crawled' | 'snapshot'>;
}

interface Pointer {
  gen: string;
  chunks: number;
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
  /** How long the snapshot writer keeps the role without saving. Default 10 min. */
  writerMs?: number;
}

/** Takes or renews a role: free, or already ours (ARGV[3] = '1': take it whoever holds it). */
const LEAD = `local v = redis.call('get', KEYS[1])
if v == false or v == ARGV[1] or ARGV[3] == '1' then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;

export class RedisSnapshotStore implements SnapshotStore {
  readonly #redis: RedisClient;
  readonly #o: Required<RedisSnapshotOptions>;

  constructor(redis: RedisClient, o: RedisSnapshotOptions) {
    this.#redis = redis;
    this.#o = { lockMs: 300_000, waitStepMs: 250, waitUp: async () => {}, writerMs: 600_000, ...o };
  }

  readonly #token = `${process.pid}:${Math.random().toString(36).slice(2)}`;

  #key = (language: string) => `${this.#o.prefix}index:${language}`;
  #lock = (language: string) => `${this.#o.prefix}index-lock:${language}`;

  #writer = (language: string) => `${this.#o.prefix}index-writer:${language}`;
  #chunk = (language: string, gen: string, i: number) => `${this.#o.prefix}index:${language}:${gen}:${i}`;

  async #pointer(language: string): Promise<Pointer | null> {
    try {
      const raw = await this.#redis.getBuffer(this.#key(language));
      const p = raw ? (JSON.parse(raw.toString('utf8')) as Partial<Pointer>) : null;
      return p && typeof p.gen === 'string' && Number.isInteger(p.chunks) ? (p as Pointer) : null;
    } catch {
      // Not a pointer: an older gateway's single-value snapshot, or nothing.
      return null;
    }
  }

  async load(language: string, into: EventIndex): Promise<boolean> {
    await this.#o.waitUp?.();
    // A save may replace the generation while it is read: then read the new one (twice at most).
    for (let attempt = 0; attempt < 3; attempt++) {
      if (!this.#o.up()) return false;
      const p = await this.#pointer(language);
      if (!p) return false;
      const redis = this.#redis;
      const chunk = this.#chunk;
      const chunks = (async function* () {
        for (let i = 0; i < p.chunks; i++) {
          const buf = await redis.getBuffer(chunk(language, p.gen, i));
          if (!buf) throw new Error('snapshot chunk gone');
          yield buf;
        }
      })();
      if (await decodeSnapshot(into, chunks)) return true;
      const now = await this.#pointer(language);
      if (now?.gen === p.gen) return false;
    }
    return false;
  }

  async save(index: EventIndex, options: { force?: boolean } = {}): Promise<boolean> {
    const language = index.language;
    if (!this.#o.up()) return false;
    try {
      const lead = await this.#redis.eval(
        LEAD,
        1,
        this.#writer(language),
        this.#token,
        String(this.#o.writerMs),
        options.force ? '1' : '0',
      );
      if (lead !== 1) return false;
      const gen = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      let chunks = 0;
      try {
        for await (const c of encodeSnapshot(index)) {
          await this.#redis.set(this.#chunk(language, gen, chunks), c);
          chunks++;
        }
      } catch (err) {
        await this.#drop(language, { gen, chunks: chunks + 1 });
        throw err;
      }
      if (chunks === 0) return false;
      const old = await this.#pointer(language);
      await this.#redis.set(this.#key(language), JSON.stringify({ gen, chunks } satisfies Pointer));
      if (old) await this.#drop(language, old);
      return true;
    } catch {
      return false;
    }
  }

  async #drop(language: string, p: Pointer): Promise<void> {
    // One key per UNLINK: the chunks spread over a cluster's slots (a multi-key command must stay in one slot).
    const keys = Array.from({ length: p.chunks }, (_, i) => this.#chunk(language, p.gen, i));
    await Promise.all(keys.map((k) => this.#redis.unlink(k).catch(() => 0)));
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
          await this.#redis.eval(RELEASE_LOCK, 1, this.#lock(language), token).catch(() => {});
        }
      }
      // Someone else crawls: wait until their lock is gone, then use their snapshot (or crawl if they failed).
      while (this.#o.up() && (await this.#redis.exists(this.#lock(language)).catch(() => 0))) {
        await new Promise((r) => setTimeout(r, this.#o.waitStepMs));
      }
      if (await this.#pointer(language)) return 'snapshot';
    }
  }
}
