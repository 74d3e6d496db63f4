// Gateways as `npm start` runs them (demo mode) on one Redis: a subscription made through the ops API, a gateway
// SIGKILLed while its receiver holds the request, and a change written while no gateway runs: another gateway
// delivers both, the first under the same webhook-id, once the dead one's lease has ended.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startChild } from '../../bench/lib.ts';
import { ensureSharedRedis, SHARED_REDIS, testPrefix } from '../cache/redis-helper.ts';
import { appendToStream, change, type Receiver, receiver, sharedRedis, until } from './support.ts';

const PASSWORD = 'webhook-test-password';
const ADMIN = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;

describe('a gateway killed mid-delivery', () => {
  const { prefix, cleanup } = testPrefix();
  const servers: Server[] = [];
  let r: Receiver;
  let held: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const start = async () => {
    const s = await startChild(['src/main.ts'], {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      REDIS_URL: SHARED_REDIS,
      REDIS_PREFIX: prefix,
      DEMO_PASSWORD: PASSWORD,
      DEMO_EVENTS: '20',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCALE: '0.001',
      WEBHOOK_LEASE_SECONDS: '3',
    });
    servers.push(s);
    return s;
  };

  beforeAll(async () => {
    await ensureSharedRedis();
    // The first request is never answered: its gateway dies holding it.
    r = await receiver((n, res) => (n === 1 ? held() : res.end('ok')));
  });
  afterAll(async () => {
    for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop();
    await r.close();
    await cleanup();
  });

  it('loses nothing: the held message and a change made while no gateway ran are delivered by the next', async () => {
    const a = await start();
    // Administrators only: anonymous 401, an editor (no manage_options) 403, as the other ops routes.
    const editor = `Basic ${Buffer.from(`editor:${PASSWORD}`).toString('base64')}`;
    expect((await fetch(`${a.url}/calendar-gateway/v1/webhooks`)).status).toBe(401);
    expect(
      (await fetch(`${a.url}/calendar-gateway/v1/webhooks`, { headers: { authorization: editor } })).status,
    ).toBe(403);
    const made = await fetch(`${a.url}/calendar-gateway/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ url: r.url, types: ['event.updated'] }),
    });
    expect(made.status).toBe(201);
    const sub = (await made.json()) as { id: string; secret: string };
    const redis = sharedRedis(prefix);
    try {
      await appendToStream(redis.cmd as never, prefix, change(1));
      await holding;
      const first = String(r.deliveries[0]!.headers['webhook-id']);
      a.child.kill('SIGKILL');
      await new Promise((res) => a.child.once('exit', res));
      await appendToStream(redis.cmd as never, prefix, change(2));
      const b = await start();
      await until('both delivered', () => r.deliveries.length >= 3, 40_000);
      const seen = r.deliveries.map((d) =>
        new Webhook(sub.secret).verify(d.body, d.headers as Record<string, string>),
      );
      expect(seen.map((p) => (p as { data: { id: number } }).data.id).sort()).toEqual([1, 1, 2]);
      expect(r.deliveries.filter((d) => d.headers['webhook-id'] === first)).toHaveLength(2);
      const successes = () =>
        fetch(`${b.url}/calendar-gateway/v1/webhooks/${sub.id}/attempts`, {
          headers: { authorization: ADMIN },
        })
          .then((res) => res.json() as Promise<Array<{ message: string; outcome: string }>>)
          .then((all) => all.filter((x) => x.outcome === 'success'));
      const attempts = await until('both recorded', () => successes().then((s) => s.length === 2 && s));
      expect(attempts.map((x) => x.message)).toContain(first);
      const metrics = await (
        await fetch(`${b.url}/calendar-gateway/v1/metrics`, { headers: { authorization: ADMIN } })
      ).text();
      expect(metrics).toMatch(/^calendar_gateway_webhook_attempts_total\{outcome="success"\} [12]$/m);
      expect(metrics).toMatch(/^calendar_gateway_webhook_queue_depth 0$/m);
      expect(metrics).toMatch(/^calendar_gateway_webhook_oldest_undelivered_age_seconds 0$/m);
    } finally {
      redis.close();
    }
  }, 120_000);
});
