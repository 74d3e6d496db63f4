// The delivery queue in Redis, shared by every instance: messages in a hash, a due-time sorted set whose score a
// claim pushes to the end of its lease (a holder that dies leaves its messages due again), each change of state one
// Lua script. Every key carries the hash tag `{wh}`, so a Redis Cluster keeps them in one slot for the scripts.
import { randomUUID } from 'node:crypto';
import type { SharedRedis } from '../shared-redis.ts';
import { type Claimed, type DeliveryQueue, KEEP_FINISHED_MS, LOG_LENGTH, type QueueStats } from './queue.ts';
import type { Attempt, Message } from './types.ts';

/** The keys of one deployment (REDIS_PREFIX): all in the slot of `{wh}`. */
export const webhookKeys = (prefix: string) => {
  const p = `${prefix}wh:{wh}:`;
  return {
    subs: `${p}subs`,
    messages: `${p}messages`,
    due: `${p}due`,
    born: `${p}born`,
    leases: `${p}leases`,
    finished: `${p}finished`,
    log: (sub: string) => `${p}log:${sub}`,
  };
};

// KEYS: messages, due, born; ARGV: due time, then id and JSON pairs. Adds only what is not there yet.
const ENQUEUE = `
local added = 0
for i = 2, #ARGV, 2 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then
    local m = cjson.decode(ARGV[i + 1])
    redis.call('ZADD', KEYS[2], ARGV[1], ARGV[i])
    redis.call('ZADD', KEYS[3], m.created_ms, ARGV[i])
    added = added + 1
  end
end
return added`;

// KEYS: due, messages, leases; ARGV: now, lease end, max, token. Due messages move to the end of their lease.
const CLAIM = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, id in ipairs(ids) do
  local m = redis.call('HGET', KEYS[2], id)
  if m then
    redis.call('ZADD', KEYS[1], ARGV[2], id)
    redis.call('HSET', KEYS[3], id, ARGV[4])
    table.insert(out, m)
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out`;

// KEYS: messages, due, born, leases, finished; ARGV: id, token, JSON, due time or '' when finished, now.
// Nothing happens unless the lease is still this holder's (another instance took the message after it ended).
const SETTLE = `
if redis.call('HGET', KEYS[4], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('ZADD', KEYS[5], ARGV[5], ARGV[1])
else
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
end
return 1`;

// KEYS: messages, due, born, leases, finished; ARGV: id, subscription, now.
const REDELIVER = `
local text = redis.call('HGET', KEYS[1], ARGV[1])
if not text then return 0 end
local m = cjson.decode(text)
if m.sub ~= ARGV[2] then return 0 end
m.attempts = 0
m.state = 'pending'
m.created_ms = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(m))
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1`;

// KEYS: finished, messages; ARGV: before.
const PRUNE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 500)
for _, id in ipairs(ids) do
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[1], id)
end
return #ids`;

export class RedisQueue implements DeliveryQueue {
  readonly #r: SharedRedis;
  readonly #k: ReturnType<typeof webhookKeys>;

  constructor(redis: SharedRedis) {
    this.#r = redis;
    this.#k = webhookKeys(redis.prefix);
  }

  async enqueue(messages: Message[], dueMs: number): Promise<number> {
    if (!messages.length) return 0;
    const k = this.#k;
    const pairs = messages.flatMap((m) => [m.id, JSON.stringify(m)]);
    return Number(await this.#r.cmd.eval(ENQUEUE, 3, k.messages, k.due, k.born, dueMs, ...pairs));
  }

  async claim(nowMs: number, leaseMs: number, max: number): Promise<Claimed[]> {
    const k = this.#k;
    const token = randomUUID();
    const out = (await this.#r.cmd.eval(
      CLAIM,
      3,
      k.due,
      k.messages,
      k.leases,
      nowMs,
      nowMs + leaseMs,
      max,
      token,
    )) as string[];
    return out.map((text) => ({ message: JSON.parse(text) as Message, token }));
  }

  async settle(
    c: Claimed,
    result: { attempts: number; dueMs: number } | { attempts: number; state: 'delivered' | 'failed' },
    nowMs: number,
  ): Promise<boolean> {
    const k = this.#k;
    const m: Message = { ...c.message, attempts: result.attempts };
    if ('state' in result) m.state = result.state;
    const due = 'dueMs' in result ? String(result.dueMs) : '';
    const keys = [k.messages, k.due, k.born, k.leases, k.finished];
    return (await this.#r.cmd.eval(SETTLE, 5, ...keys, m.id, c.token, JSON.stringify(m), due, nowMs)) === 1;
  }

  async get(id: string): Promise<Message | null> {
    const text = await this.#r.cmd.hget(this.#k.messages, id);
    return text ? (JSON.parse(text) as Message) : null;
  }

  async redeliver(id: string, sub: string, nowMs: number): Promise<boolean> {
    const k = this.#k;
    const keys = [k.messages, k.due, k.born, k.leases, k.finished];
    return (await this.#r.cmd.eval(REDELIVER, 5, ...keys, id, sub, nowMs)) === 1;
  }

  async stats(): Promise<QueueStats> {
    const [depth, oldest] = await Promise.all([
      this.#r.cmd.zcard(this.#k.born),
      this.#r.cmd.zrange(this.#k.born, '0', '0', 'WITHSCORES'),
    ]);
    return { depth, oldestMs: oldest.length ? Number(oldest[1]) : null };
  }

  async prune(nowMs: number): Promise<void> {
    await this.#r.cmd.eval(PRUNE, 2, this.#k.finished, this.#k.messages, nowMs - KEEP_FINISHED_MS);
  }

  async logAttempt(sub: string, attempt: Attempt): Promise<void> {
    const key = this.#k.log(sub);
    await this.#r.cmd
      .multi()
      .lpush(key, JSON.stringify(attempt))
      .ltrim(key, 0, LOG_LENGTH - 1)
      .exec();
  }

  async attempts(sub: string): Promise<Attempt[]> {
    const items = await this.#r.cmd.lrange(this.#k.log(sub), 0, LOG_LENGTH - 1);
    return items.map((t) => JSON.parse(t) as Attempt);
  }
}
