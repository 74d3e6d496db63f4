// Redis restarting under the queue (killed with SIGKILL, its append-only file kept, as a persistent Redis runs):
// the message waiting for its retry, the subscription and the change log's group all survive, and the message is
// delivered once Redis is back.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib.ts';
import { WebhookAdmin } from '../../src/webhooks/manage.ts';
import { guard } from '../slack.ts';
import { appendToStream, change, instance, receiver, until } from './support.ts';

describe('webhooks across a Redis restart', () => {
  let port: number;
  let dir: string;
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    );
    const probe = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    await until('redis up', () =>
      probe
        .connect()
        .then(
          () => probe.ping(),
          () => false,
        )
        .catch(() => false),
    );
    probe.disconnect();
  };
  const kill = async () => {
    const s = server!;
    const gone = new Promise((r) => s.once('exit', r));
    s.kill('SIGKILL');
    await gone;
  };
  beforeAll(async () => {
    port = await freePort();
    dir = mkdtempSync(join(tmpdir(), 'cg-wh-redis-'));
    await start();
  });
  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) await kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers a message that was waiting for its retry when Redis was killed and restarted', {
    timeout: guard(60_000),
  }, async () => {
    let up = false;
    const r = await receiver((_n, res) => res.writeHead(up ? 200 : 503).end());
    const cmd = new Redis({ port, maxRetriesPerRequest: 1 });
    cmd.on('error', () => {});
    const w = instance({ redis: { cmd, up: () => cmd.status === 'ready', prefix: 'cg:' } });
    try {
      const sub = await new WebhookAdmin(w).create({ url: r.url, types: ['*'] });
      await appendToStream(cmd, 'cg:', change(9));
      await until('a failed attempt', () => r.deliveries.length >= 1);
      const id = String(r.deliveries[0]!.headers['webhook-id']);
      await kill();
      await start();
      // Back from its append-only file: the subscription, and the message still waiting for its next attempt.
      expect((await until('the queue readable', () => w.queue.get(id).catch(() => null)))?.state).toBe(
        'pending',
      );
      expect(await w.subs.get(sub.id)).toMatchObject({ url: r.url, enabled: true });
      up = true;
      await until(
        'delivered after the restart',
        async () => (await w.queue.attempts(sub.id).catch(() => [])).some((a) => a.outcome === 'success'),
        30_000,
      );
      expect((await w.queue.get(id))?.state).toBe('delivered');
      const ids = new Set(r.deliveries.map((d) => d.headers['webhook-id']));
      expect(ids.size).toBe(1);
      expect((await w.queue.stats()).depth).toBe(0);
    } finally {
      await w.stop();
      cmd.disconnect();
      await r.close();
    }
  });
});
