// The fast path answers only anonymous GET/HEAD of URLs the adapter already resolved, and never a credentialed call.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEntry } from './entry.ts';
import { fastServe } from './fast-path.ts';
import { ResponseCache } from './response-cache.ts';

const cache = new ResponseCache({
  policy: { ttlSeconds: 60, staleWhileRevalidateSeconds: 0, staleIfErrorSeconds: 0 },
});
let server: Server;
let base: string;

beforeAll(async () => {
  // Behind the fast path, the "adapter": learns the URL's key and stores an entry, answering `adapter`.
  server = createServer((req, res) => {
    if (fastServe(cache, req, res)) return;
    cache.aliases.learn(req, 'key');
    cache.get('key', async () => ({
      entry: makeEntry('{"from":"cache"}', { tags: ['list:event'] }),
      store: true,
    }));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"adapter"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await fetch(`${base}/events?per_page=10`).then((r) => r.text());
  await new Promise((r) => setTimeout(r, 10));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const from = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  return text ? (JSON.parse(text) as { from: string }).from : `${res.status}`;
};

describe('fastServe', () => {
  it('answers an anonymous GET of a learnt URL from the cache', async () => {
    expect(await from('/events?per_page=10')).toBe('cache');
  });

  it.each([
    ['Authorization', { Authorization: 'Basic YTpi' }],
    ['Cookie', { Cookie: 'wordpress_logged_in_x=1' }],
    ['X-WP-Nonce', { 'X-WP-Nonce': 'abc' }],
  ])('leaves a request with %s to express', async (_name, headers) => {
    expect(await from('/events?per_page=10', { headers })).toBe('adapter');
  });

  it('leaves other URLs and methods to express', async () => {
    expect(await from('/events?per_page=11')).toBe('adapter');
    expect(await from('/events?per_page=10', { method: 'POST' })).toBe('adapter');
  });

  it('misses once the entry is invalidated', async () => {
    await cache.invalidate(['list:event']);
    expect(await from('/events?per_page=10')).toBe('adapter');
  });
});
