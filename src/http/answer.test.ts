// Answers and their HTTP rules: strong ETags over the bytes, If-None-Match matching, the 304 header list.
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { makeEntry, publicCacheControl } from '../cache/entry.ts';
import { acceptsGzip, etagMatches, gzipOf, ownBytes, strongEtag, utf8Bytes } from './answer.ts';
import { notModifiedHeaders } from './send.ts';

describe('strongEtag', () => {
  it('is equal for equal bytes and different for different bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array(), fc.uint8Array(), (a, b) => {
        const same = Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
        expect(strongEtag(Buffer.from(a)) === strongEtag(Buffer.from(b))).toBe(same);
      }),
    );
  });

  it('is a quoted strong validator', () => {
    expect(strongEtag(Buffer.from('x'))).toMatch(/^"[\w-]+"$/);
  });
});

describe('utf8Bytes', () => {
  const units = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) });

  it('makes the bytes Buffer.from makes, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.oneof(units, fc.string({ unit: 'grapheme' }), fc.string()), (text) => {
        expect(utf8Bytes(text).equals(Buffer.from(text))).toBe(true);
      }),
    );
  });

  it('makes them for texts at and past the scratch buffer’s size', () => {
    for (const text of ['–'.repeat(256 * 1024), `${'–'.repeat(256 * 1024)}x`, 'é'.repeat(300_000)]) {
      expect(utf8Bytes(text).equals(Buffer.from(text))).toBe(true);
    }
  });

  it('gives each text bytes of its own, which a later text never overwrites', () => {
    const first = utf8Bytes('{"title":"Café – one"}');
    const second = utf8Bytes('{"title":"another, longer one"}');
    expect(first.toString()).toBe('{"title":"Café – one"}');
    expect(second.toString()).toBe('{"title":"another, longer one"}');
    expect(first.buffer === second.buffer && first.byteOffset === second.byteOffset).toBe(false);
  });
});

/** Whether `b` has a block of memory of its own size (not a view into a pool, a zlib chunk or a socket read). */
const owns = (b: Buffer) => b.byteOffset === 0 && b.buffer.byteLength === b.length;

describe('memory of cached answers', () => {
  it('ownBytes keeps a buffer that has its memory to itself, and copies a view', () => {
    const own = Buffer.allocUnsafeSlow(10).fill(1);
    expect(ownBytes(own)).toBe(own);
    const pooled = Buffer.from('a small body');
    expect(owns(pooled)).toBe(false); // Node's pool: this is what the test is about
    const copy = ownBytes(pooled);
    expect(owns(copy)).toBe(true);
    expect(copy.equals(pooled)).toBe(true);
    const view = Buffer.from('xx{"id":1}yy').subarray(2, 10);
    expect(ownBytes(view).toString()).toBe('{"id":1}');
  });

  it('makes bodies and gzips that hold no larger block alive, as a stored answer is kept for hours', async () => {
    const small = makeEntry('{"id":1,"title":"one"}');
    expect(owns(small.body)).toBe(true);
    expect(owns(makeEntry(Buffer.from('{"id":2}')).body)).toBe(true);
    const text = JSON.stringify({ id: 3, description: 'z'.repeat(3000) });
    const entry = makeEntry(text);
    expect(owns(entry.body)).toBe(true);
    // zlib hands back a 900-byte gzip as a view into a 64 KB chunk: kept as it is, each cached gzip held that much.
    await vi.waitFor(() => expect(gzipOf(entry, true)).not.toBeNull());
    const gz = gzipOf(entry, true)!;
    expect(owns(gz.body)).toBe(true);
    expect(gunzipSync(gz.body).toString()).toBe(text);
    const sync = makeEntry(text);
    expect(owns(gzipOf(sync)!.body)).toBe(true);
  });
});

describe('etagMatches', () => {
  const tag = '"abc"';
  it.each([
    [undefined, false],
    ['', false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x","y"', false],
    ['*', true],
    ['"ABC"', false],
  ])('If-None-Match %j matches: %s', (header, expected) => {
    expect(etagMatches(header, tag)).toBe(expected);
  });
});

describe('makeEntry', () => {
  it('computes the ETag once from the stored bytes and lower-cases header names', () => {
    const e = makeEntry('{"a":1}', { headers: { 'X-WP-Total': '3' }, tags: ['b', 'a', 'b'], now: 5 });
    expect(e.etag).toBe(strongEtag(Buffer.from('{"a":1}')));
    expect(e.headers).toEqual({ 'x-wp-total': '3' });
    expect(e.tags).toEqual(['b', 'a']);
    expect(e.storedAt).toBe(5);
  });
});

describe('Cache-Control and 304 headers', () => {
  it('names max-age, stale-while-revalidate and stale-if-error', () => {
    expect(
      publicCacheControl({ ttlSeconds: 60, staleWhileRevalidateSeconds: 30, staleIfErrorSeconds: 600 }),
    ).toBe('public, max-age=60, stale-while-revalidate=30, stale-if-error=600');
  });

  it('keeps only the headers RFC 9110 §15.4.5 lists (and Age) on a 304', () => {
    const kept = notModifiedHeaders({
      etag: '"a"',
      'cache-control': 'public',
      vary: 'Cookie',
      'content-type': 'application/json',
      'x-wp-total': '4',
      link: '<x>',
      age: '3',
    });
    expect(kept).toEqual({ etag: '"a"', 'cache-control': 'public', vary: 'Cookie', age: '3' });
  });
});

describe('gzip of stored answers', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['GZIP', true],
    ['gzip;q=0', false],
    ['*', true],
    ['*;q=0', false],
    ['identity', false],
    ['', false],
    ['deflate, *;q=0.1, gzip;q=0', false],
  ])('Accept-Encoding %j accepts gzip: %s', (header, ok) => {
    expect(acceptsGzip(header || undefined)).toBe(ok);
  });

  it('compresses a large body once, with its own strong ETag, and leaves small bodies alone', () => {
    const big = makeEntry(
      JSON.stringify({ events: Array.from({ length: 50 }, (_, i) => ({ id: i, title: 'x'.repeat(40) })) }),
    );
    const gz = gzipOf(big);
    expect(gz).not.toBeNull();
    expect(gunzipSync(gz!.body).equals(big.body)).toBe(true);
    expect(gz!.body.length).toBeLessThan(big.body.length);
    expect(gz!.etag).toMatch(/^"[^"]+-gz"$/);
    expect(gz!.etag).not.toBe(big.etag);
    expect(gzipOf(big)).toBe(gz);
    expect(gzipOf(makeEntry('{"events":[]}'))).toBeNull();
  });

  it('compresses a stored answer off the event loop: none on its first demand, the same gzip once it is made', async () => {
    const entry = makeEntry(
      JSON.stringify({ events: Array.from({ length: 50 }, (_, i) => ({ id: i, title: 'y'.repeat(40) })) }),
    );
    expect(gzipOf(entry, true)).toBeNull();
    // Asked again before it is ready (another hit, or the same answer made for one request): still not made twice.
    expect(gzipOf(entry, true)).toBeNull();
    expect(gzipOf(entry)).toBeNull();
    await vi.waitFor(() => expect(gzipOf(entry, true)).not.toBeNull());
    const gz = gzipOf(entry, true)!;
    expect(gunzipSync(gz.body).equals(entry.body)).toBe(true);
    expect(gz.etag).toBe(`${entry.etag.slice(0, -1)}-gz"`);
    expect(gzipOf(entry)).toBe(gz);
  });

  it('sends a very large body as it is until its gzip, made off the event loop, is ready', async () => {
    const huge = makeEntry(
      `BEGIN:VCALENDAR\r\n${'BEGIN:VEVENT\r\nSUMMARY:x\r\nEND:VEVENT\r\n'.repeat(8000)}`,
    );
    expect(huge.body.length).toBeGreaterThan(128 * 1024);
    expect(gzipOf(huge)).toBeNull();
    await vi.waitFor(() => expect(gzipOf(huge)).not.toBeNull());
    expect(gunzipSync(gzipOf(huge)!.body).equals(huge.body)).toBe(true);
  });
});
