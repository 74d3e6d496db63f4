// Webhook subscriptions written by two parties at once (an administrator's edit, a delivery noting a failure, a delete):
// each change is written over the subscription as it is then, in memory and in a real Redis, and a deleted one stays so.
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookAdmin } from '../../src/webhooks/manage.ts';
import type { Webhooks } from '../../src/webhooks/service.ts';
import {
  MemorySubscriptions,
  RedisSubscriptions,
  type SubscriptionStore,
} from '../../src/webhooks/subscriptions.ts';
import type { Subscription } from '../../src/webhooks/types.ts';
import { ensureSharedRedis, testPrefix } from '../cache/redis-helper.ts';
import { instance, sharedRedis } from './support.ts';

const { prefix, cleanup } = testPrefix();
let redis: ReturnType<typeof sharedRedis>;
let n = 0;
const open: Webhooks[] = [];
beforeAll(async () => {
  await ensureSharedRedis();
  redis = sharedRedis(prefix);
});
afterAll(async () => {
  for (const w of open) await w.stop();
  redis.close();
  await cleanup();
});

const sub = (id: string): Subscription => ({
  id,
  url: 'https://hooks.example/a',
  types: ['*'],
  description: '',
  private: false,
  enabled: true,
  disabled_reason: null,
  failing_since: null,
  created_ms: 1000,
  secret: 'whsec_x',
  previous_secret: null,
  previous_until: null,
});

const redisStore = () => new RedisSubscriptions({ ...redis, prefix: `${prefix}${++n}:` });

describe.each([
  ['memory', () => new MemorySubscriptions() as SubscriptionStore],
  ['Redis', () => redisStore() as SubscriptionStore],
])('a subscription store in %s', (_name, make) => {
  it('writes a change of the subscription as it is, and nothing for one that is not there', async () => {
    const store = make();
    await store.put(sub('wh_1'));
    expect(await store.patch('wh_1', (s) => ({ ...s, description: 'new' }))).toMatchObject({
      description: 'new',
    });
    expect(await store.get('wh_1')).toMatchObject({ description: 'new', url: 'https://hooks.example/a' });
    expect(await store.patch('wh_2', (s) => s)).toBeNull();
    expect(await store.get('wh_2')).toBeNull();
  });
});

// Between a read and a write of one process nothing else runs in memory; in Redis another instance's write can land.
describe('a subscription store in Redis, written by another instance meanwhile', () => {
  it('keeps a write that came between its read and its write, and writes its change over it', async () => {
    const store = redisStore();
    await store.put(sub('wh_1'));
    let reads = 0;
    const next = await store.patch('wh_1', (s) => {
      // Another instance's edit lands after this read (sent first on the connection, it reaches Redis first).
      if (++reads === 1) void store.put({ ...s, url: 'https://hooks.example/b' });
      return { ...s, failing_since: 5000 };
    });
    expect(reads).toBe(2);
    expect(next).toMatchObject({ url: 'https://hooks.example/b', failing_since: 5000 });
    expect(await store.get('wh_1')).toMatchObject({ url: 'https://hooks.example/b', failing_since: 5000 });
  });

  it('does not put back a subscription deleted between its read and its write', async () => {
    const store = redisStore();
    await store.put(sub('wh_1'));
    const next = await store.patch('wh_1', (s) => {
      void store.delete('wh_1');
      return { ...s, failing_since: 5000 };
    });
    expect(next).toBeNull();
    expect(await store.get('wh_1')).toBeNull();
    expect(await store.all()).toEqual([]);
  });
});

/** A resolver that answers a public address once `release` is called; `checked` resolves when it was asked. */
function heldResolver() {
  let release = () => {};
  let asked = () => {};
  const checked = new Promise<void>((r) => (asked = r));
  const resolve = async (): Promise<LookupAddress[]> => {
    asked();
    await new Promise<void>((r) => (release = r));
    return [{ address: '93.184.216.34', family: 4 }];
  };
  return { resolve, checked, release: () => release() };
}

describe.each([
  ['memory', () => ({})],
  ['Redis', () => ({ redis: { ...redis, prefix: `${prefix}${++n}:` } })],
])("an administrator's edit in %s", (_name, store) => {
  it('answers 404 and puts nothing back when the subscription is deleted while its new URL is checked', async () => {
    const { resolve, checked, release } = heldResolver();
    const w = instance({ allowPrivate: false, resolve, ...store() });
    open.push(w);
    const admin = new WebhookAdmin(w);
    const made = await w.subs.put(sub('wh_9')).then(() => sub('wh_9'));
    const edit = admin.update(made.id, { url: 'https://hooks.example/c' });
    await checked;
    await admin.remove(made.id);
    release();
    await expect(edit).rejects.toMatchObject({ status: 404 });
    expect(await w.subs.get(made.id)).toBeNull();
  });

  it("keeps a delivery's note of a failure made while the edit's URL was checked", async () => {
    const { resolve, checked, release } = heldResolver();
    const w = instance({ allowPrivate: false, resolve, ...store() });
    open.push(w);
    await w.subs.put(sub('wh_8'));
    const edit = new WebhookAdmin(w).update('wh_8', { url: 'https://hooks.example/d' });
    await checked;
    await w.subs.patch('wh_8', (s) => ({ ...s, failing_since: 7000 }));
    release();
    expect(await edit).toMatchObject({ url: 'https://hooks.example/d' });
    expect(await w.subs.get('wh_8')).toMatchObject({ url: 'https://hooks.example/d', failing_since: 7000 });
  });
});
