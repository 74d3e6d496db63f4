// Throttles failed sign-ins (Basic and cookie) per address and per user name, before WordPress is asked.
import { createHash } from 'node:crypto';
import type { Credentials } from '../context.ts';
import { tooManyAuthAttempts } from '../http/errors.ts';
import type { SharedRedis } from '../shared-redis.ts';
import { type Count, secondsLeft, WindowCounters } from '../throttle/counters.ts';

export interface AuthLimits {
  /** Failed sign-ins one address may make per window, whatever the user names. */
  perAddress: number;
  /** Failed sign-ins one address may make per window for one user name. */
  perUserAddress: number;
  /**
   * Failed sign-ins for one user name from all addresses per window. Past it the name is under attack: an address
   * that has not signed in as that user lately gets one try per window instead of `perUserAddress`. Never a lockout:
   * a first try (the right password) from any address still goes through.
   */
  perUser: number;
  windowMs: number;
  /** How long an address that signed in as a user stays known for that user (full `perUserAddress` under attack). */
  knownMs: number;
}

/** What one sign-in reserved: kept when WordPress refused the credentials, given back otherwise. */
export interface AuthAttempt {
  /** WordPress accepted the credentials: nothing counts, and the address becomes known for the user. */
  accepted(): Promise<void>;
  /** WordPress did not say (down, timed out): nothing counts. */
  undecided(): Promise<void>;
}

/**
 * The user name credentials claim: Basic's before the colon, or the login a `wordpress_logged_in_*` cookie names
 * (`login|expiration|token|hmac`). Lower-cased, as WordPress finds logins whatever their case. Unchecked: an
 * unknown name is counted exactly as a known one, so the throttle never tells them apart.
 */
export function claimedUser(c: Credentials): string {
  if (c.kind === 'basic') return keyed(c.user);
  const m = /(?:^|;\s*)wordpress_logged_in_[^=]*=([^;]*)/.exec(c.cookie);
  let value = m?.[1] ?? '';
  try {
    value = decodeURIComponent(value);
  } catch {
    // A malformed escape: the name as it came.
  }
  return keyed(value.split('|')[0] ?? '');
}

/** A name as counters key it: trimmed, lower-cased, and hashed past 100 characters (a key is never a header's size). */
function keyed(name: string): string {
  const n = name.trim().toLowerCase();
  return n.length > 100 ? `#${createHash('sha256').update(n).digest('hex')}` : n;
}

/**
 * Counts failed sign-ins as reservations (src/throttle/counters.ts): each try is counted before WordPress checks it
 * and given back when it was accepted, so concurrent guesses cannot pass a limit and a right password never counts.
 * Over a limit, nothing is tried: 429 `too_many_auth_attempts` with `Retry-After` until the window ends, whatever
 * the password (else the throttle would still answer whether a guess is right).
 *
 * Why three counts: per address stops one address trying many names; per (user, address) stops it trying one
 * name many times. A per-user limit alone would let anyone lock the real user out from anywhere by failing on
 * purpose, so the per-user count never refuses by itself: past it, only addresses that have not signed in as that
 * user within `knownMs` are slowed to one try per window each. The real user's right password still works from a
 * known address, and from a fresh one at its first try.
 */
export class AuthThrottle {
  readonly #limits: AuthLimits;
  readonly #counts: WindowCounters;

  constructor(limits: AuthLimits, redis?: SharedRedis, memoryKeys = 100_000) {
    this.#limits = limits;
    this.#counts = new WindowCounters('auth:', redis, memoryKeys);
  }

  /** Reserves one failed sign-in of `address` as `user`, or throws 429 (then nothing stays reserved). */
  async attempt(address: string, user: string): Promise<AuthAttempt> {
    const { perAddress, perUserAddress, perUser, windowMs, knownMs } = this.#limits;
    const pair = `${user}|${address}`;
    const [users, known] = await Promise.all([
      this.#counts.peek(`u:${user}`),
      this.#counts.peek(`k:${pair}`),
    ]);
    const underAttack = users >= perUser && known === 0;
    const wanted: Array<[string, number]> = [
      [`a:${address}`, perAddress],
      [`ua:${pair}`, underAttack ? 1 : perUserAddress],
      // Counted only: it decides `underAttack` of later tries, never refuses this one.
      [`u:${user}`, Number.POSITIVE_INFINITY],
    ];
    const counts = await Promise.all(wanted.map(([k]) => this.#counts.add(k, 1, windowMs)));
    const over: Count[] = counts.filter((c, i) => c.n > (wanted[i]?.[1] ?? 0));
    const giveBack = () => Promise.all(wanted.map(([k]) => this.#counts.take(k, 1))).then(() => {});
    if (over.length) {
      await giveBack();
      throw tooManyAuthAttempts(secondsLeft(over));
    }
    return {
      accepted: async () => {
        await giveBack();
        await this.#counts.add(`k:${pair}`, 1, knownMs);
      },
      undecided: giveBack,
    };
  }
}
