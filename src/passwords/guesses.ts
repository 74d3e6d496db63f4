// Throttles guesses at post passwords, per client and record and per client overall (Redis or memory, fixed window).
import { tooManyPasswordAttempts } from '../http/errors.ts';
import type { SharedRedis } from '../shared-redis.ts';
import { secondsLeft, WindowCounters } from '../throttle/counters.ts';

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
 * Counts password attempts as reservations: every record tried is counted before WordPress is asked, and given back
 * once the answer shows the password matched (or the record has none). So concurrent guesses can never get past the
 * limit, and a caller who knows the password is never counted. Over a limit, nothing is tried: the caller gets 429
 * `too_many_password_attempts` with `Retry-After` until the window ends, whatever the password (else throttling
 * would still answer whether the next guess is right).
 */
export class PasswordGuesses {
  readonly #limits: GuessLimits;
  readonly #counts: WindowCounters;

  constructor(limits: GuessLimits, redis?: SharedRedis, memoryKeys = 100_000) {
    this.#limits = limits;
    this.#counts = new WindowCounters('pwguess:', redis, memoryKeys);
  }

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
    const windowMs = this.#limits.windowMs;
    const counts = await Promise.all(wanted.map(([k, by]) => this.#counts.add(k, by, windowMs)));
    const over = counts.filter((c, i) => c.n > (wanted[i]?.[2] ?? 0));
    const give = (keys: Array<[string, number]>) =>
      Promise.all(keys.map(([k, by]) => this.#counts.take(k, by)));
    if (over.length) {
      await give(wanted.map(([k, by]) => [k, by]));
      throw tooManyPasswordAttempts(secondsLeft(over));
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
