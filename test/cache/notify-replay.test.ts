// Change-notification replays in a real Redis: a signed body is applied once across instances and restarts.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ReplayGuard } from '../../src/cache/notify.ts';
import { SHARED_REDIS, testPrefix } from './redis-helper.ts';

const { prefix, cleanup } = testPrefix();
const redis = new Redis(SHARED_REDIS);
afterAll(async () => {
  await cleanup();
  redis.disconnect();
});

const instance = () => new ReplayGuard(300, { cmd: redis, up: () => true, prefix });

describe('notification replay guard', () => {
  it('accepts a signature once, whichever instance gets it, and still refuses it after a restart', async () => {
    const sig = `sha256=${Math.random().toString(16).slice(2)}`;
    const [a, b] = [instance(), instance()];
    expect(await a.first(sig)).toBe(true);
    expect(await a.first(sig)).toBe(false);
    expect(await b.first(sig)).toBe(false);
    // A restarted instance starts with empty memory; Redis still knows the signature.
    expect(await instance().first(sig)).toBe(false);
    expect(await instance().first(`${sig}0`)).toBe(true);
    const keys = await redis.keys(`${prefix}notify-seen:*`);
    expect(keys).toHaveLength(2);
    for (const k of keys) expect(await redis.pttl(k)).toBeGreaterThan(590_000);
  });

  it('without Redis remembers only in memory, per instance', async () => {
    const sig = 'sha256=memory-only';
    const a = new ReplayGuard(300);
    expect(await a.first(sig)).toBe(true);
    expect(await a.first(sig)).toBe(false);
    expect(await new ReplayGuard(300).first(sig)).toBe(true);
  });
});
