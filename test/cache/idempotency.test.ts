// Idempotency keys in a real Redis: shared by every instance, released after a failure, refused while in progress.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.ts';
import { IdempotencyStore, onceFor } from '../../src/stages/idempotency.ts';
import { SHARED_REDIS, testPrefix } from './redis-helper.ts';

const { prefix, cleanup } = testPrefix();
const redis = new Redis(SHARED_REDIS);
afterAll(async () => {
  await cleanup();
  redis.disconnect();
});

const store = () => new IdempotencyStore({ cmd: redis, up: () => true, prefix });

describe('idempotency keys in Redis', () => {
  it('replays on a second instance what the first answered', async () => {
    let runs = 0;
    const run = async () => ({ status: 201, body: { id: ++runs } });
    const a = await onceFor(store(), 'user:1|events.create|k1', 'fp', run);
    const b = await onceFor(store(), 'user:1|events.create|k1', 'fp', run);
    expect(a).toEqual({ status: 201, body: { id: 1 } });
    expect(b).toEqual({ status: 201, body: { id: 1 }, headers: { 'Idempotent-Replayed': 'true' } });
    expect(runs).toBe(1);
  });

  it('refuses a retry while the first request still runs, on any instance', async () => {
    let release = () => {};
    const first = onceFor(store(), 'user:1|events.create|k2', 'fp', async () => {
      await new Promise<void>((r) => (release = r));
      return { status: 201, body: {} };
    });
    await new Promise((r) => setTimeout(r, 20));
    await expect(
      onceFor(store(), 'user:1|events.create|k2', 'fp', async () => ({ status: 201, body: {} })),
    ).rejects.toMatchObject({
      code: 'idempotency_in_progress',
      status: 409,
    });
    release();
    await first;
  });

  it('releases the key when WordPress failed, so a retry writes', async () => {
    const key = 'user:1|events.create|k3';
    await expect(
      onceFor(store(), key, 'fp', async () => {
        throw new ApiError('upstream_unavailable', 'WordPress cannot be reached.', 503);
      }),
    ).rejects.toMatchObject({ status: 503 });
    const retried = await onceFor(store(), key, 'fp', async () => ({ status: 201, body: { id: 9 } }));
    expect(retried).toEqual({ status: 201, body: { id: 9 } });
  });

  it('keeps an answer for 24 hours', async () => {
    await onceFor(store(), 'user:1|events.create|k4', 'fp', async () => ({ status: 201, body: {} }));
    const keys = await redis.keys(`${prefix}idem:*`);
    const ttls = await Promise.all(keys.map((k) => redis.pttl(k)));
    expect(Math.max(...ttls)).toBeGreaterThan(23 * 3600 * 1000);
  });
});
