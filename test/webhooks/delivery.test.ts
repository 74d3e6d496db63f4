// Webhook deliveries on a real Redis to real HTTP receivers: signed as standardwebhooks verifies, retried on the
// schedule and then delivered once more, 410 disables, 3xx fails unfollowed, Retry-After honoured, two instances
// deliver each message once; and the same in memory without Redis.
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookAdmin } from '../../src/webhooks/manage.ts';
import type { Webhooks } from '../../src/webhooks/service.ts';
import { ensureSharedRedis, testPrefix } from '../cache/redis-helper.ts';
import {
  appendToStream,
  change,
  instance,
  type Receiver,
  receiver,
  sharedRedis,
  TestLog,
  until,
} from './support.ts';

const open: Array<{ close(): unknown } | Webhooks> = [];
const track = <T extends { close(): unknown } | Webhooks>(x: T): T => {
  open.push(x);
  return x;
};
afterEach(async () => {
  for (const x of open.splice(0).reverse()) await ('stop' in x ? x.stop() : x.close());
});

const verified = (secret: string, r: Receiver, i = 0) =>
  new Webhook(secret).verify(r.deliveries[i]!.body, r.deliveries[i]!.headers as Record<string, string>);

describe('webhooks without Redis', () => {
  it('sends each change of the log to the subscription, signed as the standardwebhooks package verifies', async () => {
    const log = new TestLog();
    const w = track(instance({ changes: log }));
    const r = track(await receiver());
    const sub = await new WebhookAdmin(w).create({ url: r.url, types: ['event.updated'] });
    await log.append(change(7));
    await log.append(change(8, { action: 'created' }));
    await until('a delivery', () => r.deliveries.length === 1);
    expect(verified(sub.secret, r)).toMatchObject({
      type: 'event.updated',
      data: { kind: 'event', id: 7, tags: ['event:7', 'list:event'] },
    });
    await new Promise((res) => setTimeout(res, 200));
    expect(r.deliveries).toHaveLength(1);
  });
});

describe('webhooks on Redis', () => {
  const { prefix: base, cleanup } = testPrefix();
  // Each test its own prefix: the subscriptions of one (their receivers closed) must not fail in the next.
  let prefix = base;
  let redis: ReturnType<typeof sharedRedis>;
  let n = 0;
  beforeAll(ensureSharedRedis);
  beforeEach(() => {
    prefix = `${base}${++n}:`;
    redis = track(sharedRedis(prefix));
  });
  afterAll(cleanup);
  const make = (over: Parameters<typeof instance>[0] = {}) => track(instance({ redis, ...over }));

  it('delivers a change written to the stream, the new and the old secret both signing during a rotation', async () => {
    const w = make();
    const r = track(await receiver());
    const admin = new WebhookAdmin(w);
    const sub = await admin.create({ url: r.url, types: ['*'], description: 'site' });
    const rotated = await admin.rotate(sub.id);
    await appendToStream(redis.cmd as never, prefix, change(11, { action: 'deleted', public: false }));
    await appendToStream(redis.cmd as never, prefix, change(12));
    await until('a delivery', () => r.deliveries.length === 1);
    expect(verified(rotated.secret, r)).toMatchObject({ type: 'event.updated', data: { id: 12 } });
    expect(verified(sub.secret, r)).toMatchObject({ type: 'event.updated' });
    // Event 11 was never public: a public subscription does not learn that it existed.
    await new Promise((res) => setTimeout(res, 300));
    expect(r.deliveries).toHaveLength(1);
  });

  it('tells a public subscription that a record it saw left the public view, as a deletion', async () => {
    const w = make();
    const r = track(await receiver());
    const sub = await new WebhookAdmin(w).create({ url: r.url, types: ['event.deleted', 'event.updated'] });
    const inside = track(await receiver());
    await new WebhookAdmin(w).create({ url: inside.url, types: ['*'], private: true });
    await appendToStream(redis.cmd as never, prefix, change(21, { was_public: true }));
    await appendToStream(redis.cmd as never, prefix, change(21, { public: false, was_public: true }));
    // Never public: a public subscription does not learn of it.
    await appendToStream(redis.cmd as never, prefix, change(22, { public: false, was_public: false }));
    await until('two deliveries', () => r.deliveries.length === 2);
    await new Promise((res) => setTimeout(res, 300));
    expect(r.deliveries).toHaveLength(2);
    const types = r.deliveries.map((_, i) => (verified(sub.secret, r, i) as { type: string }).type);
    expect(types.sort()).toEqual(['event.deleted', 'event.updated']);
    // A private subscription hears every change as it was made, drafts included.
    await until('three private deliveries', () => inside.deliveries.length === 3);
    const inner = inside.deliveries.map((d) => JSON.parse(d.body) as { type: string; data: { id: number } });
    expect(inner.map((p) => `${p.type} ${p.data.id}`).sort()).toEqual([
      'event.updated 21',
      'event.updated 21',
      'event.updated 22',
    ]);
  });

  it('retries a receiver failing 3 times, then delivers exactly once more', async () => {
    const w = make();
    const r = track(
      await receiver((n, res) => res.writeHead(n <= 3 ? 500 : 200).end(n <= 3 ? 'down' : 'ok')),
    );
    const sub = await new WebhookAdmin(w).create({ url: r.url, types: ['*'] });
    await appendToStream(redis.cmd as never, prefix, change(31));
    await until('4 attempts', () => r.deliveries.length === 4);
    await until('the queue to empty', async () => (await w.queue.stats()).depth === 0);
    // The next wait of the schedule (2 h × 0.001 = 7.2 s) is far; nothing is due any more, and nothing came again.
    await new Promise((res) => setTimeout(res, 500));
    expect(r.deliveries).toHaveLength(4);
    expect(new Set(r.deliveries.map((d) => d.headers['webhook-id'])).size).toBe(1);
    const log = await w.queue.attempts(sub.id);
    expect(log.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [4, 200, 'success'],
      [3, 500, 'failure'],
      [2, 500, 'failure'],
      [1, 500, 'failure'],
    ]);
    expect(log[1]!.response).toBe('down');
    expect((await w.queue.get(log[0]!.message))?.state).toBe('delivered');
    expect((await new WebhookAdmin(w).get(sub.id)).failing_since).toBeNull();
  });

  it('disables a subscription whose endpoint answers 410, and sends it nothing more', async () => {
    const w = make();
    const r = track(await receiver((_n, res) => res.writeHead(410).end('gone')));
    const admin = new WebhookAdmin(w);
    const sub = await admin.create({ url: r.url, types: ['*'] });
    await appendToStream(redis.cmd as never, prefix, change(41));
    await until('the subscription disabled', async () => !(await admin.get(sub.id)).enabled);
    expect((await admin.get(sub.id)).disabled_reason).toMatch(/410 Gone/);
    await appendToStream(redis.cmd as never, prefix, change(42));
    await new Promise((res) => setTimeout(res, 500));
    expect(r.deliveries).toHaveLength(1);
  });

  it('disables an endpoint that failed for 5 days (compressed), and says so', async () => {
    // 5 days × 1e-6 ≈ 0.43 s of failures; each message gives up sooner (3 days × 1e-6), so changes keep coming.
    const w = make({ retryScale: 1e-6 });
    const r = track(await receiver((_n, res) => res.writeHead(500).end()));
    const admin = new WebhookAdmin(w);
    const sub = await admin.create({ url: r.url, types: ['*'] });
    for (let i = 0; !(await admin.get(sub.id)).disabled_reason && i < 100; i++) {
      await appendToStream(redis.cmd as never, prefix, change(300 + i));
      await new Promise((res) => setTimeout(res, 50));
    }
    const after = await admin.get(sub.id);
    expect(after).toMatchObject({
      enabled: false,
      disabled_reason: expect.stringMatching(/failed since .* \(5 days\)/),
    });
    expect(Date.now() - Date.parse(after.failing_since!)).toBeGreaterThanOrEqual(432);
    // Turned back on by an administrator: its failures start again from nothing.
    expect(await admin.update(sub.id, { enabled: true })).toMatchObject({
      enabled: true,
      disabled_reason: null,
      failing_since: null,
    });
  });

  it('counts a redirect as a failure and never follows it', async () => {
    const w = make();
    const target = track(await receiver());
    const r = track(await receiver((_n, res) => res.writeHead(307, { location: target.url }).end()));
    const sub = await new WebhookAdmin(w).create({ url: r.url, types: ['*'] });
    await appendToStream(redis.cmd as never, prefix, change(51));
    await until('an attempt logged', async () => (await w.queue.attempts(sub.id)).length > 0);
    expect((await w.queue.attempts(sub.id))[0]).toMatchObject({ status: 307, outcome: 'failure' });
    expect(target.deliveries).toHaveLength(0);
  });

  it('waits as long as Retry-After asks on a 429', async () => {
    const w = make();
    const r = track(
      await receiver((n, res) =>
        n === 1 ? res.writeHead(429, { 'retry-after': '2' }).end() : res.end('ok'),
      ),
    );
    await new WebhookAdmin(w).create({ url: r.url, types: ['*'] });
    await appendToStream(redis.cmd as never, prefix, change(61));
    await until('2 attempts', () => r.deliveries.length === 2);
    // The schedule alone would have tried again after 5 ms.
    expect(r.deliveries[1]!.at - r.deliveries[0]!.at).toBeGreaterThanOrEqual(1900);
  });

  it('redelivers a delivered message on request, under the same webhook-id', async () => {
    const w = make();
    const r = track(await receiver());
    const admin = new WebhookAdmin(w);
    const sub = await admin.create({ url: r.url, types: ['*'] });
    await appendToStream(redis.cmd as never, prefix, change(71));
    await until('a delivery', () => r.deliveries.length === 1);
    const id = String(r.deliveries[0]!.headers['webhook-id']);
    await until('delivered', async () => (await w.queue.get(id))?.state === 'delivered');
    await admin.redeliver(sub.id, id);
    await until('a second delivery', () => r.deliveries.length === 2);
    expect(r.deliveries[1]!.headers['webhook-id']).toBe(id);
    await expect(admin.redeliver(sub.id, 'msg_nothing')).rejects.toMatchObject({ status: 404 });
  });

  it('has two instances deliver each message once', async () => {
    const a = make({ concurrency: 4 });
    const b = make({ concurrency: 4 });
    const r = track(await receiver((_n, res) => setTimeout(() => res.end('ok'), 5)));
    await new WebhookAdmin(a).create({ url: r.url, types: ['*'] });
    await new WebhookAdmin(b).create({ url: r.url, types: ['event.updated'] });
    for (let i = 0; i < 60; i++) await appendToStream(redis.cmd as never, prefix, change(1000 + i));
    await until('120 deliveries', () => r.deliveries.length >= 120);
    await new Promise((res) => setTimeout(res, 500));
    const ids = r.deliveries.map((d) => String(d.headers['webhook-id']));
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
    // Both took part: the work is shared, not merely deduplicated.
    const [sa, sb] = [a.deliverer.attempts.success, b.deliverer.attempts.success];
    expect(sa + sb).toBe(120);
    expect(Math.min(sa, sb)).toBeGreaterThan(0);
  });
});
