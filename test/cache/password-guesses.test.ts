// Password guesses counted in a real Redis: shared by every instance, windows that end, memory while Redis is away.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { PasswordGuesses } from '../../src/passwords/guesses.ts';
import { SHARED_REDIS, testPrefix } from './redis-helper.ts';

const { prefix, cleanup } = testPrefix();
const redis = new Redis(SHARED_REDIS);
afterAll(async () => {
  await cleanup();
  redis.disconnect();
});

const limits = { perRecord: 3, perClient: 5, windowMs: 60_000 };
const instance = (over: Partial<typeof limits> = {}, up = () => true) =>
  new PasswordGuesses({ ...limits, ...over }, { cmd: redis, up, prefix });

async function guess(g: PasswordGuesses, client: string, ...records: string[]): Promise<'ok' | number> {
  try {
    await g.attempt(client, records);
    return 'ok';
  } catch (err) {
    return (err as { status: number }).status;
  }
}

describe('password guesses in Redis', () => {
  it('counts the guesses of one client on every instance', async () => {
    const a = instance();
    const b = instance();
    expect(await guess(a, 'c1', 'event:1')).toBe('ok');
    expect(await guess(b, 'c1', 'event:1')).toBe('ok');
    expect(await guess(a, 'c1', 'event:1')).toBe('ok');
    expect(await guess(b, 'c1', 'event:1')).toBe(429);
    expect(await guess(b, 'c1', 'event:2')).toBe('ok');
    expect(await guess(a, 'c2', 'event:1')).toBe('ok');
  });

  it('counts one guess per record tried at once, and gives back what matched', async () => {
    const g = instance();
    const tried = await g.attempt('c3', ['event:1', 'event:2', 'event:3']);
    await tried.refund(['event:2']);
    expect(await guess(g, 'c3', 'event:4', 'event:5', 'event:6')).toBe('ok');
    expect(await guess(g, 'c3', 'event:7')).toBe(429);
  });

  it('lets no more than the limit through when guesses arrive at once on two instances', async () => {
    const a = instance();
    const b = instance();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => guess(i % 2 ? a : b, 'c4', 'event:1')),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(3);
  });

  it('stores every counter with its window, and opens again when it ends', async () => {
    const g = instance({ windowMs: 300 });
    for (let i = 0; i < 3; i++) await guess(g, 'c5', 'event:1');
    const keys = await redis.keys(`${prefix}pwguess:*c5*`);
    expect(keys.length).toBe(2);
    for (const k of keys) expect(await redis.pttl(k)).toBeGreaterThan(0);
    const err = await g.attempt('c5', ['event:1']).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, data: { retry_after: 1 } });
    await new Promise((r) => setTimeout(r, 350));
    expect(await guess(g, 'c5', 'event:1')).toBe('ok');
  });

  it('never leaves a counter without expiry when a refund comes after its window', async () => {
    const g = instance({ windowMs: 100 });
    const tried = await g.attempt('c6', ['event:1']);
    await new Promise((r) => setTimeout(r, 150));
    await tried.refund(['event:1']);
    expect(await redis.keys(`${prefix}pwguess:*c6*`)).toEqual([]);
  });

  it('counts in memory while Redis is down', async () => {
    const g = instance({}, () => false);
    for (let i = 0; i < 3; i++) expect(await guess(g, 'c7', 'event:1')).toBe('ok');
    expect(await guess(g, 'c7', 'event:1')).toBe(429);
    expect(await redis.keys(`${prefix}pwguess:*c7*`)).toEqual([]);
  });
});
