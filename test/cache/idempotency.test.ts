// Idempotency keys in a real Redis: shared by every instance, released after a failure, refused while in progress,
// and kept only for callers WordPress vouched for.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { CREATABLE } from '../../src/contract/route.ts';
import { FORMATS } from '../../src/formats.ts';
import { apiRouter } from '../../src/http/adapter.ts';
import { ApiError, forbidden } from '../../src/http/errors.ts';
import { createLogger } from '../../src/log.ts';
import { authenticate } from '../../src/stages/authenticate.ts';
import { handle } from '../../src/stages/handle.ts';
import { IdempotencyStore, idempotencyStage, onceFor } from '../../src/stages/idempotency.ts';
import { parse } from '../../src/stages/parse.ts';
import { render } from '../../src/stages/render.ts';
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

describe('which callers get a key kept in Redis', () => {
  /** A create route behind the adapter: user 7 may write, user 8 is refused as WordPress refuses a subscriber. */
  async function gateway(): Promise<{ url: string; close: () => void }> {
    const log = createLogger('silent');
    const app = express();
    const users: Record<string, number> = { editor: 7, subscriber: 8 };
    app.use(
      '/api',
      apiRouter(
        [
          {
            contract: {
              id: 'things.create',
              pattern: '/things',
              path: '/things',
              methods: CREATABLE,
              summary: { en: '', es: '' },
              args: {},
            },
            // As the write handlers do (src/write/caller.ts): anonymous callers 401, those who may not write 403.
            handler: async ({ ctx }) => {
              if (!ctx.credentials) throw forbidden(false);
              if (ctx.credentials?.kind === 'basic' && ctx.credentials.user === 'subscriber')
                throw forbidden(true);
              return { status: 201, body: { ok: true } };
            },
          },
        ],
        {
          prefix: '/api',
          defaultLanguage: 'en',
          home: 'http://site.test',
          timezone: 'UTC',
          log,
          stages: [
            authenticate({
              resolve: async (ctx) =>
                ctx.credentials?.kind === 'basic' ? { id: users[ctx.credentials.user] ?? 0 } : null,
              bodies: [express.json()],
            }),
            render(log),
            idempotencyStage(store()),
            parse(FORMATS),
            handle,
          ],
        },
      ),
    );
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/things`,
      close: () => server.close(),
    };
  }
  const basic = (user: string) => `Basic ${Buffer.from(`${user}:pw`).toString('base64')}`;
  const keys = async () => (await redis.keys(`${prefix}idem:*`)).length;

  it('stores nothing for anonymous callers or refused writers, and one record for a write', async () => {
    const gw = await gateway();
    try {
      const send = (key: string, authorization?: string) =>
        fetch(gw.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'Idempotency-Key': key,
            ...(authorization ? { Authorization: authorization } : {}),
          },
          body: '{}',
        });
      const before = await keys();
      for (let i = 0; i < 20; i++) expect((await send(`anon-${i}`)).status).toBe(401);
      for (let i = 0; i < 5; i++) expect((await send(`sub-${i}`, basic('subscriber'))).status).toBe(403);
      expect(await keys()).toBe(before);
      expect((await send('ed-1', basic('editor'))).status).toBe(201);
      expect(await keys()).toBe(before + 1);
    } finally {
      gw.close();
    }
  });
});
