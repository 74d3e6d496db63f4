// Writes to one series take turns. A scoped write reads the series (its rule, its EXDATEs, its overrides) and writes
// it back whole: two at once would each add their EXDATE to the rule they read, and the second would write the first's
// away; two updates of one occurrence would each find no override and make one. A turn is this process's first (a
// chain per series), then every instance's (a Redis key held while the write runs, renewed while it lasts).
import { randomBytes } from 'node:crypto';
import { seriesBusy } from '../http/errors.ts';
import { RELEASE_LOCK, type SharedRedis } from '../shared-redis.ts';

/** How long a turn holds its Redis key without renewal: a process that died frees the series this long after. */
export const SERIES_LEASE_MS = 20_000;
/** How long a write waits for its turn before it is refused (409, retry). */
export const SERIES_WAIT_MS = 15_000;
/** How often a waiting instance asks whether the key is free. */
const POLL_MS = 25;

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export class SeriesLocks {
  readonly #redis?: SharedRedis;
  readonly #waitMs: number;
  readonly #leaseMs: number;
  /** Per series: the end of the last turn asked for in this process. */
  readonly #tails = new Map<number, Promise<void>>();

  constructor(redis?: SharedRedis, options: { waitMs?: number; leaseMs?: number } = {}) {
    this.#redis = redis;
    this.#waitMs = options.waitMs ?? SERIES_WAIT_MS;
    this.#leaseMs = options.leaseMs ?? SERIES_LEASE_MS;
  }

  /** Runs `write` in the series' turn: after every write to it asked for before, here and in other instances. */
  async hold<T>(seriesId: number, write: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(seriesId) ?? Promise.resolve();
    let done!: () => void;
    const tail = before.then(() => new Promise<void>((r) => (done = r)));
    this.#tails.set(seriesId, tail);
    await before;
    try {
      return await this.#shared(seriesId, write);
    } finally {
      done();
      if (this.#tails.get(seriesId) === tail) this.#tails.delete(seriesId);
    }
  }

  /** The other instances' turn: a Redis key, when Redis is up (else this process's turn is all there is). */
  async #shared<T>(seriesId: number, write: () => Promise<T>): Promise<T> {
    const r = this.#redis;
    if (!r?.up()) return write();
    const key = `${r.prefix}series-lock:${seriesId}`;
    const token = randomBytes(9).toString('base64url');
    const until = Date.now() + this.#waitMs;
    for (;;) {
      const got = await r.cmd.set(key, token, 'PX', this.#leaseMs, 'NX').catch(() => 'down');
      if (got === 'down') return write();
      if (got === 'OK') break;
      if (Date.now() >= until) throw seriesBusy();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const renew = setInterval(() => {
      r.cmd.eval(RENEW, 1, key, token, this.#leaseMs).catch(() => {});
    }, this.#leaseMs / 4);
    renew.unref();
    try {
      return await write();
    } finally {
      clearInterval(renew);
      await r.cmd.eval(RELEASE_LOCK, 1, key, token).catch(() => {});
    }
  }
}
