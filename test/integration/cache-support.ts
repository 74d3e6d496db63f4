// Helpers of the cache tests: extra gateways on the same upstream (with Redis, webhook), a stoppable upstream proxy.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, inject } from 'vitest';
import { sign } from '../../src/cache/notify.ts';
import { configSchema } from '../../src/config.ts';
import { type Gateway, startGateway } from '../../src/gateway.ts';
import type { Target } from '../harness.ts';
import { guard, upstreamDeadlineMs } from '../slack.ts';

export const NS = '/wp-json/calendar/events/v1';

export interface PeerOptions {
  redisUrl?: string;
  redisPrefix?: string;
  /** REDIS_MODE and REDIS_SENTINEL_NAME (test/integration/redis-ha.test.ts). */
  redisMode?: 'standalone' | 'cluster' | 'sentinel';
  redisSentinelName?: string;
  pollIntervalMs?: number;
  webhookSecret?: string;
  /** Another upstream REST root (a proxy in front of the target's). */
  upstreamUrl?: string;
  cacheTtlSeconds?: number;
  cacheStaleWhileRevalidateSeconds?: number;
  /** CACHE_SOFT_STALE_MS (0: anonymous readers wait for a write's refill instead of getting the previous answer). */
  cacheSoftStaleMs?: number;
  /** TRUST_PROXY: the proxies whose X-Forwarded-* count. */
  trustProxy?: string;
  /** JSONP_ENABLED */
  jsonpEnabled?: 'true' | 'false';
  /** UPDATE_SEMANTICS */
  updateSemantics?: 'merge' | 'replace';
  /** CDN_PURGE, CDN_PURGE_URL and CDN_TAG_HEADERS, as the environment spells them. */
  cdn?: { purge?: string; url?: string; tagHeaders?: string };
}

/** The admin's application password, from the target's Basic header. */
const adminAuth = (t: Target): string =>
  Buffer.from(t.auth.admin.replace(/^Basic /, ''), 'base64').toString('utf8');

/** One more gateway in front of the target's WordPress, configured as a deployment would be. */
export async function peer(t: Target, o: PeerOptions = {}): Promise<Gateway> {
  const upstreamUrl = o.upstreamUrl ?? t.upstream;
  const config = configSchema.parse({
    port: 0,
    host: '127.0.0.1',
    upstreamUrl,
    upstreamAuth: adminAuth(t),
    mapping: inject('target').mapping,
    pollIntervalMs: o.pollIntervalMs ?? 0,
    upstreamTimeoutMs: upstreamDeadlineMs,
    redisUrl: o.redisUrl,
    redisPrefix: o.redisPrefix,
    redisMode: o.redisMode,
    redisSentinelName: o.redisSentinelName,
    webhookSecret: o.webhookSecret,
    cacheTtlSeconds: o.cacheTtlSeconds,
    cacheStaleWhileRevalidateSeconds: o.cacheStaleWhileRevalidateSeconds,
    cacheSoftStaleMs: o.cacheSoftStaleMs,
    trustProxy: o.trustProxy,
    jsonpEnabled: o.jsonpEnabled,
    updateSemantics: o.updateSemantics,
    cdnPurge: o.cdn?.purge,
    cdnPurgeUrl: o.cdn?.url,
    cdnTagHeaders: o.cdn?.tagHeaders,
    logLevel: 'silent',
  });
  const g = await startGateway({ ...config, upstreamUrl }, { quiet: true });
  // Tests that count upstream calls start counting after the change log's start-up reconciliation read WordPress.
  await g.deps.changesReconciled;
  return g;
}

export async function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string; json: Record<string, unknown> }> {
  const res = await fetch(`${base}${NS}${path}`, { headers });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text);
  } catch {
    // 304s and errors without JSON
  }
  return { status: res.status, headers: res.headers, text, json };
}

/**
 * Polls until `check` holds; resolves the elapsed milliseconds, or throws after `ms` × TEST_TIME_SLACK (test/slack.ts):
 * in the lanes a 1 s freshness bound measured the machine (a second gateway saw a write after more than 1 s once, its
 * refill queued behind PHP at load 15). Alone the bounds are as written.
 */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const t0 = Date.now();
  const bound = guard(ms);
  for (;;) {
    if (await check()) return Date.now() - t0;
    if (Date.now() - t0 > bound) throw new Error(`condition not met within ${bound} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sends a change notification as the companion plugin does (for the mock, which runs no PHP). */
export async function notify(gatewayUrl: string, secret: string, changes: unknown[]): Promise<number> {
  const body = JSON.stringify({ time: Math.floor(Date.now() / 1000), changes });
  const res = await fetch(`${gatewayUrl}/calendar-gateway/v1/notify`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Calendar-Gateway-Signature': sign(body, secret) },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** Points the real WordPress's companion plugin at a gateway (or nowhere), through wp/v2 settings as admin. */
export async function configureWebhook(t: Target, url: string, secret: string): Promise<void> {
  const res = await fetch(`${t.upstream}/wp/v2/settings`, {
    method: 'POST',
    headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ calendar_gateway_webhook: { url, secret } }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`cannot configure the webhook: ${res.status} ${text}`);
}

/** A pass-through HTTP proxy in front of an upstream REST root that a test can stop ("WordPress is down"). */
export async function stoppableUpstream(target: string): Promise<{ url: string; stop(): Promise<void> }> {
  const origin = new URL(target);
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        ([k, v]) => typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k),
      ),
    ) as Record<string, string>;
    try {
      const up = await fetch(`${origin.origin}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
        redirect: 'manual',
      });
      const body = Buffer.from(await up.arrayBuffer());
      const out: Record<string, string> = {};
      up.headers.forEach((v, k) => {
        if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k))
          out[k] = v;
      });
      res.writeHead(up.status, out);
      res.end(body);
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${origin.pathname.replace(/\/+$/, '')}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Records a test created through a gateway (its route, as `/events`, and id), to delete afterwards. */
export type Made = Array<{ path: string; id: number }>;

/** A write through `g` as the admin, which must succeed; a create is noted in `made` (see `removeMade`). */
export async function adminWrite(
  g: Gateway,
  t: Target,
  made: Made,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${g.url}${NS}${path}`, {
    method,
    headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  expect(res.status, JSON.stringify(json)).toBeLessThan(300);
  if (method === 'POST' && res.status === 201) made.push({ path, id: json.id as number });
  return json;
}

/** Deletes through `g`, newest first, what a test noted in `made`; a failure is left (the site is a test's). */
export async function removeMade(g: Gateway, t: Target, made: Made): Promise<void> {
  for (const c of [...made].reverse())
    await fetch(`${g.url}${NS}${c.path}/${c.id}`, {
      method: 'DELETE',
      headers: { Authorization: t.auth.admin },
    }).catch(() => undefined);
}
