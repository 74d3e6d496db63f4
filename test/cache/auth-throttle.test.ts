// Failed sign-ins counted in a real Redis: two instances share the counts, the known addresses and the windows.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type AuthLimits, AuthThrottle } from '../../src/auth/throttle.ts';
import { fail, succeed } from '../support/auth-attempts.ts';
import { SHARED_REDIS, testPrefix } from './redis-helper.ts';

const { prefix, cleanup } = testPrefix();
const redis = new Redis(SHARED_REDIS);
afterAll(async () => {
  await cleanup();
  redis.disconnect();
});

const limits: AuthLimits = {
  perAddress: 8,
  perUserAddress: 3,
  perUser: 6,
  windowMs: 60_000,
  knownMs: 600_000,
};
const instance = (over: Partial<AuthLimits> = {}, up = () => true) =>
  new AuthThrottle({ ...limits, ...over }, { cmd: redis, up, prefix });

describe('failed sign-ins in Redis', () => {
  it('counts the failures of one address and user on every instance', async () => {
    const a = instance();
    const b = instance();
    expect(await fail(a, 'x1', 'admin')).toBe('ok');
    expect(await fail(b, 'x1', 'admin')).toBe('ok');
    expect(await fail(a, 'x1', 'admin')).toBe('ok');
    const err = await b.attempt('x1', 'admin').catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, code: 'too_many_auth_attempts' });
    expect(await succeed(a, 'x2', 'admin')).toBe('ok');
  });

  it('lets no more than the limit through when failures arrive at once on two instances', async () => {
    const a = instance();
    const b = instance();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => fail(i % 2 ? a : b, 'x3', 'editor')),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(3);
  });

  it('shares the attack on a user name and the addresses known for it', async () => {
    const a = instance();
    const b = instance();
    expect(await succeed(a, 'home', 'author')).toBe('ok');
    for (let i = 0; i < 6; i++) expect(await fail(i % 2 ? a : b, `bot${i}`, 'author')).toBe('ok');
    expect(await fail(b, 'fresh', 'author')).toBe('ok');
    expect(await fail(a, 'fresh', 'author')).toBe(429);
    // Known on instance a, counted as known on b.
    for (let i = 0; i < 3; i++) expect(await fail(b, 'home', 'author')).toBe('ok');
  });

  it('stores every counter with its window', async () => {
    const g = instance({ windowMs: 300 });
    for (let i = 0; i < 3; i++) await fail(g, 'x5', 'subscriber');
    const keys = await redis.keys(`${prefix}auth:*x5*`);
    expect(keys.length).toBe(2);
    for (const k of keys) expect(await redis.pttl(k)).toBeGreaterThan(0);
    expect(await fail(g, 'x5', 'subscriber')).toBe(429);
    await new Promise((r) => setTimeout(r, 350));
    expect(await fail(g, 'x5', 'subscriber')).toBe('ok');
  });

  it('counts in memory while Redis is down', async () => {
    const g = instance({}, () => false);
    for (let i = 0; i < 3; i++) expect(await fail(g, 'x6', 'admin')).toBe('ok');
    expect(await fail(g, 'x6', 'admin')).toBe(429);
    expect(await redis.keys(`${prefix}auth:*x6*`)).toEqual([]);
  });
});
