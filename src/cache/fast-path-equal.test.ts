// The fast path answers exactly as the general writer does for the same stored entry: status, every header, body.
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { corsHeaders, originRule } from '../http/cors.ts';
import { sendAnswer } from '../http/send.ts';
import { Metrics } from '../observe/metrics.ts';
import { makeEntry, sharedOf } from './entry.ts';
import { fastServe } from './fast-path.ts';
import { ResponseCache } from './response-cache.ts';

const KEY = 'events.list|en|anonymous|x|per_page=10';
const allow = originRule(['https://app.example', 'https://other.example', 'null']);
const cache = new ResponseCache({
  policy: {
    ttlSeconds: 60,
    staleWhileRevalidateSeconds: 30,
    staleIfErrorSeconds: 600,
    cdn: { tagHeaders: ['surrogate-key'] },
  },
});
const metrics = new Metrics({} as never);
const entry = makeEntry(
  JSON.stringify({ events: Array.from({ length: 30 }, (_, i) => ({ id: i, t: 'x'.repeat(40) })) }),
  {
    headers: { 'X-TEC-Total': '30', 'X-TEC-TotalPages': '3' },
    tags: ['list:event', 'event:3'],
  },
);
let fast: Server;
let general: Server;
const base: Record<'fast' | 'general', string> = { fast: '', general: '' };

const listen = async (s: Server) => {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  // Date alone is frozen: both servers compute the same Age, whenever the requests run.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  fast = createServer((req, res) => {
    if (!fastServe(cache, req, res, allow, metrics)) res.writeHead(599).end();
  });
  // What the fast path replaced: the request id set on the response first, then the general writer.
  general = createServer((req, res) => {
    const id = req.headers['x-request-id'];
    if (typeof id === 'string' && id) res.setHeader('X-Request-Id', id.slice(0, 64));
    const extra = corsHeaders(req.headers.origin, allow);
    sendAnswer(req, res, entry, { shared: sharedOf(entry, cache.policy), extra });
  });
  base.fast = await listen(fast);
  base.general = await listen(general);
  await cache.get(KEY, async () => ({ entry, store: true }));
  for (const host of [base.fast.slice(7)]) {
    cache.aliases.learn({ url: '/events?per_page=10', headers: { host } } as never, KEY);
  }
});
afterAll(async () => {
  vi.useRealTimers();
  await new Promise<void>((r) => fast.close(() => r()));
  await new Promise<void>((r) => general.close(() => r()));
});

interface Sent {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const send = (url: string, method: string, headers: Record<string, string>) =>
  new Promise<Sent>((resolve, reject) => {
    request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });

/** Host differs between the two servers (their ports): it is what the alias was learnt by, not an answer header. */
const comparable = (s: Sent) => {
  const { date: _d, connection: _c, 'keep-alive': _k, ...headers } = s.headers;
  return { status: s.status, headers, body: s.body.toString('base64') };
};

const gzEtag = () => `${entry.etag.slice(0, -1)}-gz"`;

describe('fastServe against the general writer', () => {
  it('sends the same status, headers and body for any mix of request headers (property)', async () => {
    // The gzip is made off the event loop on first demand: wait until both representations exist.
    await vi.waitFor(async () =>
      expect(
        (await send(`${base.general}/`, 'GET', { 'accept-encoding': 'gzip' })).headers['content-encoding'],
      ).toBe('gzip'),
    );
    const headers = fc.record(
      {
        origin: fc.constantFrom(
          'https://app.example',
          'https://other.example',
          'https://evil.example',
          'null',
          'bad',
        ),
        'accept-encoding': fc.constantFrom(
          'gzip',
          'gzip, deflate, br',
          'br',
          'identity',
          '*',
          'gzip;q=0',
          '',
        ),
        'if-none-match': fc.constantFrom(
          entry.etag,
          `W/${entry.etag}`,
          gzEtag(),
          '"other"',
          '*',
          `"x", ${entry.etag}`,
        ),
        'x-request-id': fc.constantFrom('abc-123', 'r'.repeat(100)),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'HEAD'), headers, async (method, h) => {
        const sent = Object.fromEntries(Object.entries(h).filter(([, v]) => v !== '')) as Record<
          string,
          string
        >;
        const a = await send(`${base.fast}/events?per_page=10`, method, sent);
        const b = await send(`${base.general}/events?per_page=10`, method, sent);
        expect(comparable(a)).toEqual(comparable(b));
        expect(a.status === 200 || a.status === 304).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('echoes a request id in a 304 as well, and cuts it at 64 characters', async () => {
    const res = await send(`${base.fast}/events?per_page=10`, 'GET', {
      'if-none-match': entry.etag,
      'x-request-id': 'q'.repeat(80),
    });
    expect(res.status).toBe(304);
    expect(res.headers['x-request-id']).toBe('q'.repeat(64));
    expect(res.headers.etag).toBe(entry.etag);
  });

  it('gives each Origin its own CORS headers, however the origins alternate', async () => {
    for (const origin of [
      'https://app.example',
      'https://other.example',
      'https://app.example',
      'https://evil.example',
    ]) {
      const res = await send(`${base.fast}/events?per_page=10`, 'GET', { origin });
      const allowed = origin !== 'https://evil.example';
      expect(res.headers['access-control-allow-origin']).toBe(allowed ? origin : undefined);
      expect(res.headers['access-control-allow-credentials']).toBe(allowed ? 'true' : undefined);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('counts each hit under its route', async () => {
    const count = async () => {
      const text = await metrics.registry.getSingleMetricAsString('calendar_gateway_fast_path_hits_total');
      return Number(/\{route="events.list"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await count();
    await send(`${base.fast}/events?per_page=10`, 'GET', {});
    await send(`${base.fast}/events?per_page=10`, 'HEAD', {});
    expect(await count()).toBe(before + 2);
  });
});
