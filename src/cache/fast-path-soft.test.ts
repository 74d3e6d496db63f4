// A write's previous answer, while its refill runs, goes out from the fast path exactly as express sends it.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededSite } from '../../mocks/wordpress/test-support.ts';
import { guard } from '../../test/slack.ts';
import { configSchema } from '../config.ts';
import { type Gateway, startGateway } from '../gateway.ts';
import type { Loaded, ResponseCache } from './response-cache.ts';

const PASSWORD = 'soft-fast-password';
const PATH = '/wp-json/calendar/events/v1/events?per_page=3';
let g: Gateway;
let cache: ResponseCache;
let close: () => void;

// Its timeout: a gateway started over a seeded mock outlasted vitest's 10 s default once in the lanes at load 12.
beforeAll(async () => {
  const site = seededSite(PASSWORD, 12);
  close = site.close;
  const upstreamUrl = site.upstreamUrl;
  const config = configSchema.parse({
    port: 0,
    host: '127.0.0.1',
    upstreamAuth: `admin:${PASSWORD}`,
    pollIntervalMs: 0,
    cacheSoftStaleMs: 1000,
    corsOrigins: 'https://app.example',
  });
  g = await startGateway({ ...config, upstreamUrl }, { log: pino({ level: 'silent' }) });
  cache = g.deps.cache!;
}, guard(30_000));
afterAll(async () => {
  await g?.close();
  close?.();
});

/** Anonymous reads answered before express so far. */
const fastHits = async () => {
  const text = await g.deps.metrics!.registry.getSingleMetricAsString(
    'calendar_gateway_fast_path_hits_total',
  );
  return Number(/\{route="events.list"\} (\d+)/.exec(text)?.[1] ?? 0);
};

const read = async (headers: Record<string, string>) => {
  const res = await fetch(g.url + PATH, { headers });
  const sent: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!['date', 'connection', 'keep-alive'].includes(k)) sent[k] = v;
  });
  return { status: res.status, headers: sent, body: await res.text() };
};

describe('the fast path and a soft invalidation', () => {
  it("sends the previous answer while its refill runs with express's status, headers and body, and counts it", async () => {
    await read({});
    await read({});
    const host = new URL(g.url).host;
    const key = cache.aliases.lookupRaw(PATH, host, undefined)!.key;
    const previous = cache.peek(key)!;
    await cache.invalidate(previous.tags, { soft: true });
    // The refill, held open: the key stays softly invalidated with its refill running.
    let release!: (l: Loaded) => void;
    const refill = cache.get(key, () => new Promise<Loaded>((r) => (release = r)));
    // Its caller is served the previous answer at once; the load goes on.
    expect((await refill).entry).toBe(previous);
    // The stored answer's gzip is made off the event loop on its first demand, and sent from then on: made before the
    // comparison, else the fast read and the express read after it differ by whether it was done in between.
    for (let i = 0; i < 100; i++) {
      const res = await fetch(g.url + PATH, { headers: { 'Accept-Encoding': 'gzip' } });
      await res.arrayBuffer();
      if (res.headers.get('content-encoding') === 'gzip') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const soft = cache.stats.soft;
    const fastBefore = await fastHits();
    const asked: Array<Record<string, string>> = [
      { 'X-Request-Id': 'same-id' },
      { 'X-Request-Id': 'same-id', Origin: 'https://app.example', 'Accept-Encoding': 'gzip' },
      { 'X-Request-Id': 'same-id', 'If-None-Match': previous.etag },
    ];
    for (const h of asked) {
      const fast = await read(h);
      // An analytics cookie is not a credential, but it sends the reader through express.
      const viaExpress = await read({ ...h, Cookie: '_ga=GA1.1.1' });
      expect(fast).toEqual(viaExpress);
      expect(fast.status).toBe(200);
      expect(fast.body).toBe(previous.body.toString());
      expect(fast.headers['cache-control']).toBe('no-store');
      expect(fast.headers.etag).toBeUndefined();
    }
    expect(cache.stats.soft - soft).toBe(6);
    // Half of them (those without the cookie) never reached express.
    expect((await fastHits()) - fastBefore).toBe(3);
    release({ entry: previous, store: true });
  });

  it('sends the first reader after the drop through express, which starts the refill', async () => {
    const host = new URL(g.url).host;
    const key = cache.aliases.lookupRaw(PATH, host, undefined)!.key;
    // Until the refill released above is stored and fresh again.
    for (let i = 0; i < 50 && !cache.peek(key); i++) {
      await read({});
      await new Promise((r) => setTimeout(r, 10));
    }
    const entry = cache.peek(key)!;
    await cache.invalidate(entry.tags, { soft: true });
    expect(cache.peekSoft(key)).toBeUndefined();
    const fastBefore = await fastHits();
    const first = await read({});
    expect(await fastHits()).toBe(fastBefore);
    // The previous answer, unshared, from express (the fast path declined it): get started the refill.
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.body).toBe(entry.body.toString());
    for (let i = 0; i < 50 && !cache.peek(key); i++) await new Promise((r) => setTimeout(r, 10));
    const refilled = cache.peek(key);
    expect(refilled).toBeDefined();
    expect(refilled).not.toBe(entry);
  });
});
