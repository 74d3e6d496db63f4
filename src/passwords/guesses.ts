// Throttles guesses at post passwords, per client and record and per client overall (Redis or memory, fixed window).
import { LRUCache } from 'lru-cache';
import { tooManyPasswordAttempts } from '../http/errors.ts';
import type { SharedRedis } from '../shared-redis.ts';

export interface GuessLimits {
  /** Wrong passwords one client may try against one record per window. */
  perRecord: number;
  /** Wrong passwords one client may try across all records per window (`include=a,b,c` tries one per record). */
  perClient: number;
  windowMs: number;
}

/** What one attempt reserved: the records that turn out not to have been guesses are given back. */
export interface Attempt {
  /** These records were not guessed wrong (the password matched, or they have none): they do not count. */
  refund(records: readonly string[]): Promise<void>;
}

const NOTHING: Attempt = { refund: async () => {} };

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

interface Count {
  n: number;
  /** When the window ends (ms since the epoch). */
  until: number;
}

/**
 * Counts password attempts as reservations: every record tried is counted before WordPress is asked, and given back
 * once the answer shows the password matched (or the record has none). So concurrent guesses can never get past the
 * limit, and a caller who knows the password is never counted. Over a limit, nothing is tried: the caller gets 429
 * `too_many_password_attempts` with `Retry-After` until the window ends, whatever the password (else throttling
 * would still answer whether the next guess is right).
 */
export class PasswordGuesses {
  readonly #limits: GuessLimits;
  readonly #redis?: SharedRedis;
  readonly #memory: LRUCache<string, Count>;

  constructor(limits: GuessLimits, redis?: SharedRedis, memoryKeys = 100_000) {
    this.#limits = limits;
    this.#redis = redis;
    // Bounded: a flood of addresses evicts the oldest counters rather than growing without end.
    this.#memory = new LRUCache<string, Count>({ max: memoryKeys });
  }

  #key = (k: string) => `${this.#redis?.prefix ?? ''}pwguess:${k}`;

  /**
   * Reserves one guess of `client` at each record (`event:12`), or throws 429 when any count would pass its limit
   * (then nothing stays reserved).
   */
  async attempt(client: string, records: readonly string[]): Promise<Attempt> {
    if (!records.length) return NOTHING;
    const { perRecord, perClient } = this.#limits;
    const wanted: Array<[string, number, number]> = [
      [`c:${client}`, records.length, perClient],
      ...records.map((r): [string, number, number] => [`r:${client}|${r}`, 1, perRecord]),
    ];
    const counts = await Promise.all(wanted.map(([k, by]) => this.#add(k, by)));
    const over = counts.filter((c, i) => c.n > (wanted[i]?.[2] ?? 0));
    const give = (keys: Array<[string, number]>) => Promise.all(keys.map(([k, by]) => this.#take(k, by)));
    if (over.length) {
      await give(wanted.map(([k, by]) => [k, by]));
      const until = Math.max(...over.map((c) => c.until));
      throw tooManyPasswordAttempts(Math.max(1, Math.ceil((until - Date.now()) / 1000)));
    }
    return {
      refund: async (done) => {
        if (!done.length) return;
        await give([
          [`c:${client}`, done.length],
          ...done.map((r): [string, number] => [`r:${client}|${r}`, 1]),
        ]);
      },
    };
  }

  async #add(key: string, by: number): Promise<Count> {
    const r = this.#redis;
    if (r?.up()) {
      try {
        const [n, ttl] = (await r.cmd.eval(INCR, 1, this.#key(key), by, this.#limits.windowMs)) as [
          number,
          number,
        ];
        return { n, until: Date.now() + Math.max(0, ttl) };
      } catch {
        // Redis went away mid-call: this instance's memory counts until it is back.
      }
    }
    const now = Date.now();
    const seen = this.#memory.get(key);
    const c = seen && seen.until > now ? seen : { n: 0, until: now + this.#limits.windowMs };
    c.n += by;
    this.#memory.set(key, c);
    return { ...c };
  }

  async #take(key: string, by: number): Promise<void> {
    const r = this.#redis;
    if (r?.up()) {
      try {
        await r.cmd.eval(DECR, 1, this.#key(key), by);
        return;
      } catch {
        // As in #add: the memory counter is the one that was used.
      }
    }
    const c = this.#memory.get(key);
    if (c && c.until > Date.now()) c.n = Math.max(0, c.n - by);
  }
}

/**
 * Runs `read`, which tries the request's password at `records`, as one guess at each: over a limit it is not run
 * (429); after it, only the records `wrong` names (or all, when it fails with `wrongError`) stay counted.
 */
export async function asGuesses<T>(
  guesses: PasswordGuesses | undefined,
  client: string | undefined,
  records: readonly string[],
  read: () => Promise<T>,
  wrong: { of: (result: T) => readonly string[]; error?: (err: unknown) => boolean },
): Promise<T> {
  if (!guesses || !records.length) return read();
  // Without an address (a test's own context) every such caller shares one count: stricter, never looser.
  const attempt = await guesses.attempt(client ?? 'unknown', records);
  let result: T;
  try {
    result = await read();
  } catch (err) {
    if (!wrong.error?.(err)) await attempt.refund(records);
    throw err;
  }
  const missed = new Set(wrong.of(result));
  await attempt.refund(records.filter((r) => !missed.has(r)));
  return result;
}
