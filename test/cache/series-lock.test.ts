// The turns of writes to one recurring series, across instances sharing a real Redis: one at a time, a dead holder's
// turn ends with its lease, a wait past its bound is refused, and without Redis each process keeps its own turns.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { SeriesLocks } from '../../src/recurrence/series-lock.ts';
import { guard } from '../slack.ts';
import { SHARED_REDIS, testPrefix } from './redis-helper.ts';

const { prefix, cleanup } = testPrefix();
const redis = new Redis(SHARED_REDIS);
afterAll(async () => {
  await cleanup();
  redis.disconnect();
});

const instance = (options: { waitMs?: number; leaseMs?: number } = {}, up = () => true) =>
  new SeriesLocks({ cmd: redis, up, prefix }, options);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `n` writes to series `id` on `locks` (round robin), each 20 ms long, and logs when each began and ended. */
async function writes(locks: SeriesLocks[], id: number, n: number) {
  const log: string[] = [];
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      locks[i % locks.length]!.hold(id, async () => {
        log.push(`+${i}`);
        await sleep(20);
        log.push(`-${i}`);
        return i;
      }),
    ),
  );
  return log;
}

/** Whether every write in `log` ended before the next began. */
const oneAtATime = (log: string[]) =>
  log.every((e, k) => (k % 2 === 0 ? e[0] === '+' : e === `-${log[k - 1]!.slice(1)}`));

describe('turns of writes to one series', () => {
  it('runs the writes of two instances one at a time, and of two series side by side', async () => {
    const a = instance();
    const b = instance();
    const log = await writes([a, b], 101, 6);
    expect(log).toHaveLength(12);
    expect(oneAtATime(log)).toBe(true);
    // Another series is not held by this one's turns.
    const both: string[] = [];
    await Promise.all([
      a.hold(102, async () => {
        both.push('+102');
        await sleep(30);
        both.push('-102');
      }),
      b.hold(103, async () => {
        both.push('+103');
        await sleep(30);
        both.push('-103');
      }),
    ]);
    expect(both.slice(0, 2).sort()).toEqual(['+102', '+103']);
    expect(await redis.keys(`${prefix}series-lock:*`)).toEqual([]);
  });

  it('lets a write run in a turn held past its lease, renewed, and frees a dead holder once its lease ends', async () => {
    // Renewed every quarter lease: a timer late by most of a lease under the lanes' load still renews in time.
    const lease = guard(200);
    const a = instance({ leaseMs: lease });
    const b = instance({ leaseMs: lease });
    // A write three leases long keeps its turn: the other instance waits for it.
    const order: string[] = [];
    await Promise.all([
      a.hold(104, async () => {
        await sleep(3 * lease);
        order.push('long');
      }),
      sleep(50).then(() => b.hold(104, async () => order.push('next'))),
    ]);
    expect(order).toEqual(['long', 'next']);
    // A process that died holding the key: the series is free once its lease ends.
    await redis.set(`${prefix}series-lock:105`, 'dead', 'PX', lease);
    const started = Date.now();
    await b.hold(105, async () => {});
    expect(Date.now() - started).toBeGreaterThanOrEqual(lease - 50);
  });

  it('refuses a write whose turn does not come within the wait, 409 event_series_busy with Retry-After', async () => {
    await redis.set(`${prefix}series-lock:106`, 'other', 'PX', 10_000);
    let ran = false;
    await expect(
      instance({ waitMs: 100 }).hold(106, async () => {
        ran = true;
      }),
    ).rejects.toMatchObject({ code: 'event_series_busy', status: 409, data: { retry_after: 1 } });
    expect(ran).toBe(false);
  });

  it("keeps this process's turns when Redis is down", async () => {
    const down = instance({}, () => false);
    const log = await writes([down], 107, 4);
    expect(oneAtATime(log)).toBe(true);
    expect(await redis.exists(`${prefix}series-lock:107`)).toBe(0);
  });

  it('passes a failed write on and frees the turn', async () => {
    const a = instance();
    await expect(
      a.hold(108, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await a.hold(108, async () => 'next')).toBe('next');
    expect(await redis.exists(`${prefix}series-lock:108`)).toBe(0);
  });
});
