// Gateways as `npm start` runs them (demo mode) on one Redis: a subscription made through the ops API, a gateway
// SIGKILLed while its receiver holds the request, and a change written while no gateway runs: another gateway
// delivers both, the first under the same webhook-id, once the dead one's lease has ended.
import { spawn } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startChild } from '../../bench/lib.ts';
import { ensureSharedRedis, SHARED_REDIS, testPrefix } from '../cache/redis-helper.ts';
import { guard } from '../slack.ts';
import { appendToStream, change, type Receiver, receiver, sharedRedis, until } from './support.ts';

const PASSWORD = 'webhook-test-password';
const ADMIN = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const editorAuth = `Basic ${Buffer.from(`editor:${PASSWORD}`).toString('base64')}`;

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

  it('loses nothing: the held message and a change made while no gateway ran are delivered by the next', {
    timeout: guard(120_000),
  }, async () => {
    const a = await start();
    // Administrators only: anonymous 401, an editor (no manage_options) 403, as the other ops routes.
    expect((await fetch(`${a.url}/calendar-gateway/v1/webhooks`)).status).toBe(401);
    expect(
      (await fetch(`${a.url}/calendar-gateway/v1/webhooks`, { headers: { authorization: editorAuth } }))
        .status,
    ).toBe(403);
    const made = await fetch(`${a.url}/calendar-gateway/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ url: r.url, types: ['event.updated', 'event.created'] }),
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
      // Only the two changes written to the stream here (the gateways' own start-up reconciliation may log more).
      const ours = () =>
        r.deliveries
          .map((d) => ({
            d,
            p: new Webhook(sub.secret).verify(d.body, d.headers as Record<string, string>) as {
              data: { id: number; rest_url: string };
            },
          }))
          .filter(({ p }) => p.data.rest_url.startsWith('http://gateway.test/'));
      await until('both delivered', () => ours().length >= 3, 40_000);
      expect(
        ours()
          .map(({ p }) => p.data.id)
          .sort(),
      ).toEqual([1, 1, 2]);
      expect(r.deliveries.filter((d) => d.headers['webhook-id'] === first)).toHaveLength(2);
      const successes = () =>
        fetch(`${b.url}/calendar-gateway/v1/webhooks/${sub.id}/attempts`, {
          headers: { authorization: ADMIN },
        })
          .then((res) => res.json() as Promise<Array<{ message: string; outcome: string }>>)
          .then((all) => all.filter((x) => x.outcome === 'success'));
      const ourIds = () => new Set(ours().map(({ d }) => String(d.headers['webhook-id'])));
      const attempts = await until('both recorded', () =>
        successes().then((s) => s.filter((x) => ourIds().has(x.message)).length === 2 && s),
      );
      expect(attempts.map((x) => x.message)).toContain(first);
      // A write through the gateway reaches the receiver through the change log: nothing written to the stream here.
      const created = await fetch(`${b.url}/wp-json/calendar/events/v1/events`, {
        method: 'POST',
        headers: { authorization: editorAuth, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Webhook e2e',
          status: 'publish',
          start_date: '2030-01-02 10:00:00',
          end_date: '2030-01-02 11:00:00',
        }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      const delivered = await until('the write delivered', () =>
        r.deliveries
          .map((d) => new Webhook(sub.secret).verify(d.body, d.headers as Record<string, string>))
          .find((p) => (p as { data: { id: number } }).data.id === id),
      );
      expect(delivered).toMatchObject({ type: 'event.created', data: { kind: 'event', id } });
      expect((delivered as { data: { tags: string[] } }).data.tags).toContain(`event:${id}`);
      const metrics = await (
        await fetch(`${b.url}/calendar-gateway/v1/metrics`, { headers: { authorization: ADMIN } })
      ).text();
      expect(metrics).toMatch(/^calendar_gateway_webhook_attempts_total\{outcome="success"\} \d+$/m);
      expect(metrics).toMatch(/^calendar_gateway_webhook_queue_depth \d+$/m);
      expect(metrics).toMatch(/^calendar_gateway_webhook_oldest_undelivered_age_seconds [\d.e-]+$/m);
    } finally {
      redis.close();
    }
  });
});

describe('the demo without Redis', () => {
  it('delivers a write made through the gateway to a subscription, signed', {
    timeout: guard(60_000),
  }, async () => {
    const r = await receiver();
    const gw = await startChild(['src/main.ts'], {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      REDIS_URL: '',
      DEMO_PASSWORD: PASSWORD,
      DEMO_EVENTS: '20',
    });
    try {
      // The demo allows http://127.0.0.1 targets by itself (WEBHOOK_ALLOW_PRIVATE_TARGETS is for the demo's sake).
      const made = await fetch(`${gw.url}/calendar-gateway/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify({ url: r.url, types: ['event.created'] }),
      });
      expect(made.status).toBe(201);
      const { secret } = (await made.json()) as { secret: string };
      // Refusals in WordPress's words: who first (nothing is parsed for a stranger), then each failing field named.
      const post = (authorization: string | undefined, body: string) =>
        fetch(`${gw.url}/calendar-gateway/v1/webhooks`, {
          method: 'POST',
          headers: { ...(authorization ? { authorization } : {}), 'content-type': 'application/json' },
          body,
        }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> }));
      expect(await post(undefined, '{bad')).toMatchObject({ status: 401, body: { code: 'rest_forbidden' } });
      expect(await post(ADMIN, '{bad')).toMatchObject({ status: 400, body: { code: 'rest_invalid_json' } });
      expect(await post(ADMIN, JSON.stringify({ url: 'ftp://x', types: [], extra: 1 }))).toMatchObject({
        status: 400,
        body: {
          code: 'rest_invalid_param',
          data: { params: { url: expect.any(String), types: expect.any(String), extra: expect.any(String) } },
        },
      });
      const missing = await fetch(`${gw.url}/calendar-gateway/v1/webhooks/wh_none`, {
        headers: { authorization: ADMIN },
      });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ code: 'gateway_webhook_not_found' });
      const created = await fetch(`${gw.url}/wp-json/calendar/events/v1/events`, {
        method: 'POST',
        headers: { authorization: editorAuth, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: 'Demo hook',
          status: 'publish',
          start_date: '2030-03-01 10:00:00',
          end_date: '2030-03-01 11:00:00',
        }),
      });
      const { id } = (await created.json()) as { id: number };
      const payload = await until('the delivery', () =>
        r.deliveries
          .map(
            (d) =>
              new Webhook(secret).verify(d.body, d.headers as Record<string, string>) as {
                data: { id: number };
              },
          )
          .find((p) => p.data.id === id),
      );
      expect(payload).toMatchObject({ type: 'event.created', data: { kind: 'event', id } });
      // `npm run webhooks:receive` as a newcomer runs it against the demo: it subscribes and prints what comes.
      const recv = spawn(process.execPath, ['bin/webhooks-receive.ts', '--gateway', gw.url], {
        env: { ...process.env, DEMO_PASSWORD: PASSWORD },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      recv.stdout!.on('data', (d) => {
        out += String(d);
      });
      recv.stderr!.on('data', (d) => {
        out += String(d);
      });
      try {
        await until('the receiver subscribed', () => out.includes('Receiving on'));
        const again = await fetch(`${gw.url}/wp-json/calendar/events/v1/events`, {
          method: 'POST',
          headers: { authorization: editorAuth, 'content-type': 'application/json' },
          body: JSON.stringify({
            title: 'Receiver',
            status: 'publish',
            start_date: '2030-03-02 10:00:00',
            end_date: '2030-03-02 11:00:00',
          }),
        });
        const made = (await again.json()) as { id: number };
        await until('the receiver printed it', () =>
          new RegExp(`event\\.created +id ${made.id} +signature ok`).test(out),
        );
      } finally {
        const gone = new Promise((r) => recv.once('exit', r));
        recv.kill('SIGINT');
        await gone;
      }
      // Ctrl-C unsubscribed it: only the test's own subscription is left.
      const left = (await (
        await fetch(`${gw.url}/calendar-gateway/v1/webhooks`, { headers: { authorization: ADMIN } })
      ).json()) as unknown[];
      expect(left).toHaveLength(1);
    } finally {
      await gw.stop();
      await r.close();
    }
  });
});
