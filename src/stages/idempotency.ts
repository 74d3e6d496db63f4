// `Idempotency-Key` on POST: a retried write returns the first answer instead of writing twice (Redis or memory, 24 h).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { countBound, EXACT_CLOCK } from '../cache/count-bound.ts';
import { ApiError, idempotencyInProgress, idempotencyKeyReused, invalidParams } from '../http/errors.ts';
import type { Exchange, Stage } from '../http/exchange.ts';
import type { HandlerResult } from '../http/handler.ts';
import type { SharedRedis } from '../shared-redis.ts';

/** What a write answered, as replayed to a retry. */
export interface StoredResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The cache tags the write touched (a replay drops them again). */
  cache?: { tags: string[] };
}

interface Record_ {
  /** Hash of what was asked (method, route, path, body): another request under the same key is refused. */
  fp: string;
  result?: StoredResult;
}

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/**
 * How long a write in progress holds its key without a heartbeat: a live write renews it every quarter of this, so
 * a key held by a process that died is free again this long after. Longer than the undo journal's lease and sweep
 * (src/write/undo.ts): by the time a retry may run, what the dead write left is removed.
 */
export const PENDING_TTL_MS = 20_000;

/** Where keys live: Redis when configured and up (shared by every instance), else this process's memory. */
export class IdempotencyStore {
  /** 50 000 keys (none of their room allocated before it is used: countBound). */
  readonly #memory = new LRUCache<string, Record_>({
    ...countBound(50_000),
    ttl: IDEMPOTENCY_TTL_MS,
    ...EXACT_CLOCK,
  });
  readonly #redis?: SharedRedis;

  constructor(redis?: SharedRedis) {
    this.#redis = redis;
  }

  #k = (key: string) =>
    `${this.#redis?.prefix ?? ''}idem:${createHash('sha256').update(key).digest('base64url')}`;

  /** Claims `key` for a new write, or tells what an earlier request under it left. */
  async claim(key: string, fp: string): Promise<Record_ | 'claimed'> {
    const r = this.#redis;
    if (r?.up()) {
      try {
        const ok = await r.cmd.set(this.#k(key), JSON.stringify({ fp }), 'PX', PENDING_TTL_MS, 'NX');
        if (ok === 'OK') return 'claimed';
        const seen = await r.cmd.get(this.#k(key));
        if (seen) return JSON.parse(seen) as Record_;
        return this.claim(key, fp); // expired in between
      } catch {
        // Redis went away mid-call: this process's memory keeps the promise for this instance.
      }
    }
    const seen = this.#memory.get(key);
    if (seen) return seen;
    this.#memory.set(key, { fp }, { ttl: PENDING_TTL_MS });
    return 'claimed';
  }

  /** The write under `key` still runs: hold the key another PENDING_TTL_MS. */
  async renew(key: string, fp: string): Promise<void> {
    this.#memory.set(key, { fp }, { ttl: PENDING_TTL_MS });
    const r = this.#redis;
    if (r?.up()) await r.cmd.pexpire(this.#k(key), PENDING_TTL_MS).catch(() => {});
  }

  async finish(key: string, fp: string, result: StoredResult): Promise<void> {
    const rec: Record_ = { fp, result };
    this.#memory.set(key, rec);
    const r = this.#redis;
    if (r?.up()) await r.cmd.set(this.#k(key), JSON.stringify(rec), 'PX', IDEMPOTENCY_TTL_MS).catch(() => {});
  }

  /** The write failed without an answer worth keeping (upstream down): a retry may run it again. */
  async release(key: string): Promise<void> {
    this.#memory.delete(key);
    const r = this.#redis;
    if (r?.up()) await r.cmd.del(this.#k(key)).catch(() => {});
  }
}

/** A key as the header carries it: 1–255 visible ASCII characters (the IETF draft's and Stripe's limits). */
export function checkKey(raw: string): string {
  if (!/^[\x21-\x7e]{1,255}$/.test(raw)) {
    throw invalidParams({ 'Idempotency-Key': 'Idempotency-Key must be 1 to 255 visible ASCII characters.' });
  }
  return raw;
}

export const fingerprintOf = (parts: unknown[]): string =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url');

/**
 * Whether an answer is kept for 24 h: a write's outcome (done, or refused for its arguments), not a failure of
 * WordPress itself (5xx: a retry may succeed) nor a refusal of the caller as a writer (401/403: nothing was written,
 * a retry is refused again, and a caller who may not write must not fill the store).
 */
const keeps = (status: number): boolean => status < 500 && status !== 401 && status !== 403;

/**
 * Runs a write once per (caller, key): the same key and request again returns the first answer (marked
 * `Idempotent-Replayed: true`); the same key with another request is 422; a retry while the first still runs is
 * 409. Answers that {@link keeps} are kept 24 h; any other releases the key. The caller names a user WordPress
 * vouched for: anonymous callers' keys are never stored (src/http/adapter.ts).
 */
export async function onceFor(
  store: IdempotencyStore,
  key: string,
  fp: string,
  run: () => Promise<StoredResult>,
): Promise<StoredResult> {
  const seen = await store.claim(key, fp);
  if (seen !== 'claimed') {
    if (seen.fp !== fp) {
      throw idempotencyKeyReused();
    }
    if (!seen.result) {
      throw idempotencyInProgress();
    }
    return { ...seen.result, headers: { ...seen.result.headers, 'Idempotent-Replayed': 'true' } };
  }
  let result: StoredResult;
  const beat = setInterval(() => void store.renew(key, fp), PENDING_TTL_MS / 4);
  beat.unref();
  try {
    result = await run();
  } catch (err) {
    if (err instanceof ApiError && keeps(err.status)) {
      await store.finish(key, fp, { status: err.status, body: err.toJSON() });
    } else await store.release(key);
    throw err;
  } finally {
    clearInterval(beat);
  }
  if (keeps(result.status)) await store.finish(key, fp, result);
  else await store.release(key);
  return result;
}

/**
 * What an `Idempotency-Key` is held to: the method, path, query and body, so the same key with other arguments
 * anywhere is a different request. `_wpnonce` is a credential, not an argument: a retry may carry a fresh one.
 */
function requestOf(x: Exchange): unknown[] {
  const { _wpnonce, ...query } = x.query;
  return [x.method, x.path, query, x.body];
}

/**
 * Stage: a POST sent with an `Idempotency-Key` runs once per user and key. Keys are kept only for a user WordPress
 * vouched for (authenticate), under their id however their credentials are spelt; anyone else's key is ignored.
 */
export const idempotencyStage =
  (store: IdempotencyStore): Stage =>
  async (x, next) => {
    const header = x.method === 'POST' && x.user ? x.req.get('idempotency-key') : undefined;
    if (header === undefined || !x.user) return next();
    const key = `user:${x.user.id}|${x.binding.contract.id}|${checkKey(header)}`;
    x.result = await onceFor(store, key, fingerprintOf(requestOf(x)), async () => {
      await next();
      const r = x.result as HandlerResult;
      return { ...r, status: r.status ?? 200 };
    });
  };
