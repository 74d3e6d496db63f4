// The delivery queue's contract, held by both forms: in memory and in Redis. A claim holds a message for its lease;
// a holder whose lease ended can no longer write its outcome, and the message is due again for another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryQueue, MemoryQueue } from '../../src/webhooks/queue.ts';
import { RedisQueue } from '../../src/webhooks/redis-queue.ts';
import type { Message } from '../../src/webhooks/types.ts';
import { ensureSharedRedis, testPrefix } from '../cache/redis-helper.ts';
import { sharedRedis } from './support.ts';

const msg = (id: string, created = 1000): Message => ({
  id,
  sub: 'wh_1',
  body: `{"n":"${id}"}`,
  created_ms: created,
  attempts: 0,
  state: 'pending',
});

const { prefix, cleanup } = testPrefix();
let redis: ReturnType<typeof sharedRedis>;
let n = 0;
beforeAll(async () => {
  await ensureSharedRedis();
  redis = sharedRedis(prefix);
});
afterAll(async () => {
  redis.close();
  await cleanup();
});

describe.each([
  ['memory', () => new MemoryQueue() as DeliveryQueue],
  ['Redis', () => new RedisQueue({ ...redis, prefix: `${prefix}${++n}:` }) as DeliveryQueue],
])('the delivery queue in %s', (_name, make) => {
  it('adds a message once, however often it is fanned out', async () => {
    const q = make();
    expect(await q.enqueue([msg('a'), msg('b')], 1000)).toBe(2);
    expect(await q.enqueue([msg('a')], 1000)).toBe(0);
    expect(await q.stats()).toEqual({ depth: 2, oldestMs: 1000 });
  });

  it('gives a due message to one claimant until its lease ends, then to the next', async () => {
    const q = make();
    await q.enqueue([msg('a')], 1000);
    expect(await q.claim(999, 100, 10)).toEqual([]);
    const [first] = await q.claim(1000, 100, 10);
    expect(first?.message.id).toBe('a');
    expect(await q.claim(1050, 100, 10)).toEqual([]);
    const [second] = await q.claim(1100, 100, 10);
    expect(second?.message.id).toBe('a');
    // The first holder's lease ended: its outcome is not written; the second's is.
    expect(await q.settle(first!, { attempts: 1, state: 'delivered' }, 1150)).toBe(false);
    expect(await q.settle(second!, { attempts: 1, dueMs: 5000 }, 1150)).toBe(true);
    expect((await q.get('a'))?.attempts).toBe(1);
    expect(await q.claim(4999, 100, 10)).toEqual([]);
    const [third] = await q.claim(5000, 100, 10);
    expect(await q.settle(third!, { attempts: 2, state: 'delivered' }, 5001)).toBe(true);
    expect(await q.get('a')).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(await q.stats()).toEqual({ depth: 0, oldestMs: null });
    expect(await q.claim(1e12, 100, 10)).toEqual([]);
  });

  it('redelivers a finished message for its own subscription only, its attempts counted again', async () => {
    const q = make();
    await q.enqueue([msg('a')], 1000);
    const [c] = await q.claim(1000, 100, 10);
    await q.settle(c!, { attempts: 10, state: 'failed' }, 1001);
    expect(await q.redeliver('a', 'wh_other', 2000)).toBe(false);
    expect(await q.redeliver('nothing', 'wh_1', 2000)).toBe(false);
    expect(await q.redeliver('a', 'wh_1', 2000)).toBe(true);
    expect(await q.get('a')).toMatchObject({ state: 'pending', attempts: 0 });
    expect((await q.claim(2000, 100, 10)).map((x) => x.message.id)).toEqual(['a']);
  });

  it('keeps the last 100 attempts of a subscription, newest first', async () => {
    const q = make();
    for (let i = 1; i <= 105; i++)
      await q.logAttempt('wh_1', {
        message: 'a',
        attempt: i,
        time: new Date(i).toISOString(),
        status: 500,
        duration_ms: 1,
        outcome: 'failure',
        response: '',
      });
    const log = await q.attempts('wh_1');
    expect(log).toHaveLength(100);
    expect(log[0]!.attempt).toBe(105);
    expect(log[99]!.attempt).toBe(6);
  });

  it('forgets finished messages after 7 days, not pending ones', async () => {
    const q = make();
    await q.enqueue([msg('done'), msg('waiting')], 1000);
    const claimed = await q.claim(1000, 100, 10);
    await q.settle(claimed.find((c) => c.message.id === 'done')!, { attempts: 1, state: 'delivered' }, 1000);
    await q.settle(claimed.find((c) => c.message.id === 'waiting')!, { attempts: 1, dueMs: 1e13 }, 1000);
    await q.prune(1000 + 7 * 86_400_000 + 1);
    expect(await q.get('done')).toBeNull();
    expect(await q.get('waiting')).not.toBeNull();
  });
});
