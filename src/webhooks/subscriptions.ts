// Where subscriptions live: a Redis hash shared by every instance, or this process's memory without Redis.
import type { SharedRedis } from '../shared-redis.ts';
import { webhookKeys } from './redis-queue.ts';
import type { Subscription } from './types.ts';

export interface SubscriptionStore {
  all(): Promise<Subscription[]>;
  get(id: string): Promise<Subscription | null>;
  put(s: Subscription): Promise<void>;
  delete(id: string): Promise<boolean>;
  /**
   * Writes `change` of the subscription as it is now, or answers null when it is gone (never puts one back). Whole
   * against other writes: an administrator's edit and a delivery's note of a failure, made at once, both hold.
   */
  patch(id: string, change: (s: Subscription) => Subscription): Promise<Subscription | null>;
}

/** Tries of a patch whose subscription another write changed between its read and its write. */
const PATCH_TRIES = 20;

/** Sets the field to ARGV[2] if it still holds ARGV[1]: 1; another value: 0; no field (deleted): -1. */
const SWAP = `local v = redis.call('hget', KEYS[1], ARGV[1])
if not v then return -1 end
if v ~= ARGV[2] then return 0 end
redis.call('hset', KEYS[1], ARGV[1], ARGV[3])
return 1`;

export class MemorySubscriptions implements SubscriptionStore {
  readonly #subs = new Map<string, Subscription>();
  async all() {
    return [...this.#subs.values()].map((s) => ({ ...s }));
  }
  async get(id: string) {
    const s = this.#subs.get(id);
    return s ? { ...s } : null;
  }
  async put(s: Subscription) {
    this.#subs.set(s.id, { ...s });
  }
  async delete(id: string) {
    return this.#subs.delete(id);
  }
  async patch(id: string, change: (s: Subscription) => Subscription) {
    const s = this.#subs.get(id);
    if (!s) return null;
    const next = change({ ...s });
    this.#subs.set(id, { ...next });
    return { ...next };
  }
}

export class RedisSubscriptions implements SubscriptionStore {
  readonly #r: SharedRedis;
  readonly #key: string;
  constructor(redis: SharedRedis) {
    this.#r = redis;
    this.#key = webhookKeys(redis.prefix).subs;
  }
  async all() {
    const all = await this.#r.cmd.hgetall(this.#key);
    return Object.values(all)
      .map((t) => JSON.parse(t) as Subscription)
      .sort((a, b) => a.created_ms - b.created_ms || a.id.localeCompare(b.id));
  }
  async get(id: string) {
    const t = await this.#r.cmd.hget(this.#key, id);
    return t ? (JSON.parse(t) as Subscription) : null;
  }
  async put(s: Subscription) {
    await this.#r.cmd.hset(this.#key, s.id, JSON.stringify(s));
  }
  async delete(id: string) {
    return (await this.#r.cmd.hdel(this.#key, id)) === 1;
  }
  async patch(id: string, change: (s: Subscription) => Subscription) {
    for (let i = 0; i < PATCH_TRIES; i++) {
      const raw = await this.#r.cmd.hget(this.#key, id);
      if (!raw) return null;
      const next = change(JSON.parse(raw) as Subscription);
      const done = Number(await this.#r.cmd.eval(SWAP, 1, this.#key, id, raw, JSON.stringify(next)));
      if (done === 1) return next;
      if (done === -1) return null;
    }
    throw new Error(`webhook subscription ${id} kept changing under ${PATCH_TRIES} tries to write it`);
  }
}
