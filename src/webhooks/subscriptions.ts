// Where subscriptions live: a Redis hash shared by every instance, or this process's memory without Redis.
import type { SharedRedis } from '../shared-redis.ts';
import { webhookKeys } from './redis-queue.ts';
import type { Subscription } from './types.ts';

export interface SubscriptionStore {
  all(): Promise<Subscription[]>;
  get(id: string): Promise<Subscription | null>;
  put(s: Subscription): Promise<void>;
  delete(id: string): Promise<boolean>;
}

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
}
