// A shared answer's headers are made once per answer, representation and second, and every hit still gets exactly
// the headers of its own request: its Age, its CORS headers, its representation.
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeEntry } from '../cache/entry.ts';
import { corsHeaders } from './cors.ts';
import { answerHeaders, type SendOptions, type SharedHeaders, sendAnswer } from './send.ts';

const entry = makeEntry(
  JSON.stringify({ events: Array.from({ length: 40 }, (_, i) => ({ id: i, t: 'x'.repeat(30) })) }),
  {
    headers: { 'X-TEC-Total': '40' },
  },
);
/** What the next request is sent with (the test sets it before each call). */
let options: SendOptions = {};
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => sendAnswer(req, res, entry, options));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A raw GET: the headers and body as sent (fetch would decompress). */
const get = (headers: Record<string, string> = {}) =>
  new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    request(`${base}/`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });

const shared = (age: number, cacheControl = 'public, max-age=60'): SharedHeaders => ({ cacheControl, age });
const sent = (h: IncomingHttpHeaders) => {
  const { date: _d, connection: _c, 'keep-alive': _k, ...rest } = h;
  return rest;
};

describe('sendAnswer of a shared answer', () => {
  it('sends each hit the headers made for it, though the list is made once per second and representation', async () => {
    const none = corsHeaders(undefined, () => true);
    for (const [age, extra, cacheControl] of [
      [0, none, 'public, max-age=60'],
      [0, none, 'public, max-age=60'],
      [1, none, 'public, max-age=60'],
      [1, corsHeaders('https://app.example', () => true), 'public, max-age=60'],
      [1, none, 'public, max-age=60'],
      [1, none, 'public, max-age=30'],
    ] as const) {
      options = { shared: shared(age, cacheControl), extra };
      const expected = { ...answerHeaders(entry, options), 'content-length': String(entry.body.length) };
      const res = await get({ 'Accept-Encoding': 'identity' });
      expect(sent(res.headers)).toEqual(expected);
      expect(res.body.equals(entry.body)).toBe(true);
    }
  });

  it('keeps the gzip representation’s headers apart from the plain one’s', async () => {
    options = { shared: shared(2), extra: corsHeaders(undefined, () => true) };
    const plain = await get();
    await vi.waitFor(async () =>
      expect((await get({ 'Accept-Encoding': 'gzip' })).headers['content-encoding']).toBe('gzip'),
    );
    const gz = await get({ 'Accept-Encoding': 'gzip' });
    const again = await get();
    expect(gz.headers.etag).toBe(`${entry.etag.slice(0, -1)}-gz"`);
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    expect(again.headers['content-encoding']).toBeUndefined();
    expect(sent(again.headers)).toEqual(sent(plain.headers));
    expect(again.body.equals(entry.body)).toBe(true);
  });
});
