// Fixed-window counters shared by every instance through Redis (this process's memory while Redis is away).
import { LRUCache } from 'lru-cache';
import { countBound } from '../cache/count-bound.ts';
import type { SharedRedis } from '../shared-redis.ts';

/**
 * Adds `ARGV[1]` to a counter and starts its window on first use; answers the count and the window's time left.
 * One script, so a counter never exists without its expiry (a crash between INCRBY and PEXPIRE would block forever).
 */
const INCR = `local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {v, redis.call('PTTL', KEYS[1])}`;

/** Gives back `ARGV[1]` if the window is still open (never recreates an expired counter without an expiry). */
const DECR = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECRBY', KEYS[1], ARGV[1]) end
return 0`;

/** A counter's value and when its window ends (ms since the epoch). */
export interface Count {
  n: number;
  until: number;
}

/**
 * Counters that start a window of `windowMs` at their first use and vanish at its end. Reservations are counted
 * before the thing they limit is tried and given back (`take`) when it turns out not to count: concurrent tries can
 * never get past a limit. Memory is bounded: a flood of keys evicts the oldest counters rather than growing.
 */
export class WindowCounters {
  readonly #redis?: SharedRedis;
  readonly #memory: LRUCache<string, Count>;
  /** Prepended (after the Redis prefix) to every key: one namespace per use (`pwguess:`, `auth:`). */
  readonly #space: string;

  constructor(space: string, redis?: SharedRedis, memoryKeys = 100_000) {
    this.#space = space;
    this.#redis = redis;
    // Two of these, 100 000 keys each, made in the start's task: countBound allocates none of their room up front.
    this.#memory = new LRUCache<string, Count>(countBound(memoryKeys));
  }

  #key = (k: string) => `${this.#redis?.prefix ?? ''}${this.#space}${k}`;

  /** Adds `by` to `key` (a window of `windowMs` starts with its first use) and answers the new count. */
  async add(key: string, by: number, windowMs: number): Promise<Count> {
    const r = this.#redis;
    if (r?.up()) {
      try {
        const [n, ttl] = (await r.cmd.eval(INCR, 1, this.#key(key), by, windowMs)) as [number, number];
        return { n, until: Date.now() + Math.max(0, ttl) };
      } catch {
        // Redis went away mid-call: this instance's memory counts until it is back.
      }
    }
    const now = Date.now();
    const seen = this.#memory.get(key);
    const c = seen && seen.until > now ? seen : { n: 0, until: now + windowMs };
    c.n += by;
    this.#memory.set(key, c);
    return { ...c };
  }

  /** Gives `by` back to `key` while its window is open. */
  async take(key: string, by: number): Promise<void> {
    const r = this.#redis;
    if (r?.up()) {
      try {
        await r.cmd.eval(DECR, 1, this.#key(key), by);
        return;
      } catch {
        // As in add: the memory counter is the one that was used.
      }
    }
    const c = this.#memory.get(key);
    if (c && c.until > Date.now()) c.n = Math.max(0, c.n - by);
  }

  /** The count of `key` in its open window (0 when there is none), without changing it. */
  async peek(key: string): Promise<number> {
    const r = this.#redis;
    if (r?.up()) {
      try {
        return Number((await r.cmd.get(this.#key(key))) ?? 0);
      } catch {
        // As in add.
      }
    }
    const c = this.#memory.get(key);
    return c && c.until > Date.now() ? c.n : 0;
  }
}

/** Seconds until the latest of `counts` ends its window, at least 1: a 429's `Retry-After`. */
export const secondsLeft = (counts: readonly Count[]): number =>
  Math.max(1, Math.ceil((Math.max(...counts.map((c) => c.until)) - Date.now()) / 1000));
