// Real Redis for the cache tests: the shared server on 6379 (started if stopped) and private killable servers.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../bench/lib.ts';
import { hashedKey } from '../../src/cache/key.ts';
import { guard } from '../slack.ts';

export const SHARED_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

const ping = (port: number): boolean => {
  try {
    return (
      execFileSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8', timeout: 2000 }).trim() ===
      'PONG'
    );
  } catch {
    return false;
  }
};

/** Makes sure the shared Redis answers (CI machines have it installed but maybe stopped). */
export async function ensureSharedRedis(): Promise<void> {
  const port = Number(new URL(SHARED_REDIS).port || 6379);
  if (ping(port)) return;
  spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--daemonize', 'yes'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 50 && !ping(port); i++) await new Promise((r) => setTimeout(r, 100));
  if (!ping(port))
    throw new Error(`redis-server did not start on port ${port}: install Debian's redis-server`);
}

/** A unique key prefix per test run, and a cleanup that deletes everything under it. */
export function testPrefix(): { prefix: string; cleanup: () => Promise<void> } {
  const prefix = `cgtest:${process.pid}:${Math.random().toString(36).slice(2, 8)}:`;
  return {
    prefix,
    cleanup: async () => {
      const r = new Redis(SHARED_REDIS);
      let cursor = '0';
      do {
        const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length) await r.del(...keys);
      } while (cursor !== '0');
      r.disconnect();
    },
  };
}

export interface PrivateRedis {
  url: string;
  port: number;
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Kills it and removes its directory. */
  dispose(): Promise<void>;
}

/** A redis-server of our own on a free port, that a test may kill and restart. */
export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cg-redis-'));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      {
        stdio: 'ignore',
      },
    );
    for (let i = 0; i < 50 && !ping(port); i++) await new Promise((r) => setTimeout(r, 100));
  };
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await gone;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    kill,
    dispose: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves once each cache's invalidation reader knows where it reads from: a cache drops what it filled before
 * then (it may have missed an invalidation), so a test that fills and then expects the copy waits for this first.
 */
export async function readersStarted(...caches: Array<{ stream?: { started: boolean } }>): Promise<void> {
  const end = Date.now() + guard(20_000);
  while (!caches.every((c) => c.stream?.started)) {
    if (Date.now() > end) throw new Error('an invalidation reader did not start within 20 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Whether Redis holds the cache entry of `key` under `prefix` within `ms` (× the lanes' slack): an instance's fill
 * reaches Redis after its answer, so another instance reads it from there only once this holds.
 */
export async function filledInRedis(raw: Redis, prefix: string, key: string, ms = 5000): Promise<boolean> {
  const end = Date.now() + guard(ms);
  for (;;) {
    if ((await raw.exists(`${prefix}e:${hashedKey(key)}`)) === 1) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}
