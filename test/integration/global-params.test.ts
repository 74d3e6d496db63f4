// WordPress's global parameters on the calendar routes: `_fields`, `_envelope`, `_jsonp`, `_method` and
// X-HTTP-Method-Override, with the shared cache, ETags and gzip kept right for each shape.
import { type IncomingHttpHeaders, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Gateway } from '../../src/gateway.ts';
import { call, openTarget, type Target } from '../harness.ts';
import { get, NS, peer } from './cache-support.ts';
import { type EventRecord, expectError, Fixtures, type Json, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2035, 6);
let t: Target;
let fx: Fixtures;
let base: string;
let ev: EventRecord;
const window = `start_date=${encodeURIComponent(day(1, '00:00:00'))}&end_date=${encodeURIComponent(day(28, '23:59:59'))}`;

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  base = t.gateway.url;
  ev = await fx.event({
    title: `${tok} globals`,
    start_date: day(3, '19:00:00'),
    end_date: day(3, '21:00:00'),
    venue: { venue: `${tok} hall`, city: 'Lyon' },
  });
  for (let i = 0; i < 3; i++)
    await fx.event({ title: `${tok} more ${i}`, start_date: day(4 + i), end_date: day(4 + i, '11:00:00') });
});

/** A request whose body is left as sent (fetch would unzip it). */
const raw = (path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = request(`${base}${NS}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

describe('_fields', () => {
  it('keeps only the named keys of a record, nested `a.b` paths and comma lists, in the record order', async () => {
    const res = await get(
      base,
      `/events/${ev.id}?_fields=title,id,venue.venue,start_date_details.year,nothing`,
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['id', 'title', 'start_date_details', 'venue']);
    expect(res.json).toEqual({
      id: ev.id,
      title: `${tok} globals`,
      start_date_details: { year: '2035' },
      venue: { venue: `${tok} hall` },
    });
  });

  it('reads a list of values too (`_fields[]=`), and keys of a list answer as WordPress does', async () => {
    const res = await get(base, `/events?${window}&search=${tok}&_fields[]=total&_fields[]=events`);
    expect(Object.keys(res.json)).toEqual(['events', 'total']);
    expect(res.json.total).toBe(4);
    expect((res.json.events as Json[])[0]?.title).toBe(`${tok} globals`);
    // A list answer is an object: `events.id` names an `id` key of the list itself, which has none (as in WordPress).
    const nested = await get(base, `/events?${window}&search=${tok}&_fields=events.id,total`);
    expect(nested.json).toEqual({ events: [], total: 4 });
  });

  it('never changes an error', async () => {
    const res = await call(t, 'GET', '/events/999999999?_fields=code');
    expectError(res, 404, 'rest-event-not-found');
  });

  it('is cached apart from the full answer, each with its own ETag, 304 and gzip', async () => {
    const path = `/events?${window}&search=${tok}`;
    const full = await get(base, path);
    const small = await get(base, `${path}&_fields=total`);
    const fullAgain = await get(base, path);
    const smallAgain = await get(base, `${path}&_fields=total`);
    expect(small.json).toEqual({ total: 4 });
    expect(fullAgain.text).toBe(full.text);
    expect(smallAgain.text).toBe(small.text);
    expect((full.json.events as Json[]).length).toBe(4);
    const fullTag = full.headers.get('etag') as string;
    const smallTag = small.headers.get('etag') as string;
    expect(smallTag).toMatch(/^"/);
    expect(smallTag).not.toBe(fullTag);
    expect(smallAgain.headers.get('etag')).toBe(smallTag);
    expect(small.headers.get('cache-control')).toMatch(/^public/);
    expect((await get(base, `${path}&_fields=total`, { 'If-None-Match': smallTag })).status).toBe(304);
    expect((await get(base, `${path}&_fields=total`, { 'If-None-Match': fullTag })).status).toBe(200);
    expect((await get(base, path, { 'If-None-Match': smallTag })).status).toBe(200);
    // gzip: the shaped answer compressed, with its own validator, the same bytes once unzipped.
    const plain = await get(base, `${path}&_fields=events`);
    expect(plain.json).toEqual({ events: full.json.events });
    // A stored answer's gzip is made off the request path: the first callers may get it as it is.
    const gz = await vi.waitFor(async () => {
      const r = await raw(`${path}&_fields=events`, { 'Accept-Encoding': 'gzip' });
      expect(r.headers['content-encoding']).toBe('gzip');
      return r;
    });
    expect(gunzipSync(gz.body).toString()).toBe(plain.text);
    const identity = await raw(`${path}&_fields=events`, { 'Accept-Encoding': 'identity' });
    expect(identity.body.toString()).toBe(plain.text);
    expect(gz.headers.etag).not.toBe(identity.headers.etag);
    const gzAgain = await raw(`${path}&_fields=events`, {
      'Accept-Encoding': 'gzip',
      'If-None-Match': String(gz.headers.etag),
    });
    expect(gzAgain.status).toBe(304);
  });
});

describe('_envelope', () => {
  it('answers 200 with {body, status, headers}, the totals inside instead of on the answer', async () => {
    const res = await get(base, `/events?${window}&search=${tok}&_envelope`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['body', 'status', 'headers']);
    expect(res.json.status).toBe(200);
    expect(res.json.headers).toEqual({ 'X-TEC-Total': 4, 'X-TEC-TotalPages': 1 });
    expect((res.json.body as Json).total).toBe(4);
    expect(res.headers.get('x-tec-total')).toBeNull();
  });

  it('wraps errors too, a refusal of the credentials and a missing route included, after `_fields`', async () => {
    const missing = await get(base, '/events/999999999?_envelope=1');
    expect(missing.status).toBe(200);
    expect(missing.json).toMatchObject({ status: 404, body: { code: 'rest-event-not-found' }, headers: [] });
    const anonymous = await call(t, 'POST', '/events?_envelope', { body: { title: 'x' } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({
      status: 401,
      body: { code: 'rest_forbidden', data: { status: 401 } },
    });
    const noRoute = await get(base, '/nowhere?_envelope');
    expect(noRoute.json).toMatchObject({ status: 404, body: { code: 'rest_no_route' } });
    const both = await get(base, `/events/${ev.id}?_envelope&_fields=id`);
    expect(both.json).toEqual({ body: { id: ev.id }, status: 200, headers: [] });
  });
});

describe('_jsonp', () => {
  it('wraps the JSON in the callback, as JavaScript, on lists, records and errors', async () => {
    const res = await get(base, `/events/${ev.id}?_jsonp=app.cb_1&_fields=id`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript; charset=utf-8$/i);
    expect(res.text).toBe(`/**/app.cb_1({"id":${ev.id}})`);
    const missing = await get(base, '/events/999999999?_jsonp=cb');
    expect(missing.status).toBe(404);
    expect(missing.text).toMatch(/^\/\*\*\/cb\(\{"code":"rest-event-not-found"/);
    const enveloped = await get(base, '/events/999999999?_jsonp=cb&_envelope');
    expect(enveloped.status).toBe(200);
    expect(enveloped.text).toMatch(/^\/\*\*\/cb\(\{"body":\{"code":"rest-event-not-found".*"status":404/);
  });

  it('refuses a callback that is not a dotted name before anything else, and ignores a falsy one', async () => {
    for (const cb of ['alert(1)', 'a-b', 'x%3Bdocument']) {
      const res = await get(base, `/events?_jsonp=${cb}`);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('rest_callback_invalid');
      expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    }
    const arr = await get(base, '/events/999999999?_jsonp[]=cb');
    expect(arr.json.code).toBe('rest_callback_invalid');
    const zero = await get(base, `/events/${ev.id}?_jsonp=0`);
    expect(zero.headers.get('content-type')).toMatch(/^application\/json/);
    expect(zero.json.id).toBe(ev.id);
  });

  it('is refused as WordPress refuses it where the site turned JSONP off (JSONP_ENABLED=false)', async () => {
    let off: Gateway | undefined;
    try {
      off = await peer(t, { jsonpEnabled: 'false' });
      const res = await get(off.url, `/events/${ev.id}?_jsonp=cb`);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('rest_callback_disabled');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    } finally {
      await off?.close();
    }
  });
});

describe('the iCalendar feeds', () => {
  it('ignore the global parameters: a feed is no REST data', async () => {
    const plain = await fetch(`${base}${NS}/events.ics?${window}&search=${tok}`);
    const shaped = await fetch(
      `${base}${NS}/events.ics?${window}&search=${tok}&_envelope&_jsonp=cb&_fields=id`,
    );
    expect(shaped.status).toBe(200);
    expect(shaped.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await shaped.text();
    expect(text).toMatch(/^BEGIN:VCALENDAR/);
    expect(text).toBe(await plain.text());
  });
});

describe('_method and X-HTTP-Method-Override', () => {
  it('make a POST the method they name, through the same credentials and write path', async () => {
    const target = await fx.event({
      title: `${tok} override`,
      start_date: day(20),
      end_date: day(20, '12:00:00'),
    });
    const anonymous = await call(t, 'POST', `/events/${target.id}?_method=DELETE`);
    expectError(anonymous, 401, 'rest_forbidden');
    const subscriber = await call(t, 'POST', `/events/${target.id}?_method=delete`, { as: 'subscriber' });
    expect(subscriber.status).toBe(403);
    const patched = await call(t, 'POST', `/events/${target.id}`, {
      as: 'admin',
      headers: { 'X-HTTP-Method-Override': 'PATCH' },
      body: { title: `${tok} patched` },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.title).toBe(`${tok} patched`);
    const deleted = await call(t, 'POST', `/events/${target.id}?_method=DELETE`, { as: 'admin' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.status).toBe('trash');
    const again = await call(t, 'POST', `/events/${target.id}?_method=DELETE`, { as: 'admin' });
    expect(again.status).toBe(410);
  });

  it('never turn a GET into a write', async () => {
    const target = await fx.event({
      title: `${tok} kept`,
      start_date: day(21),
      end_date: day(21, '12:00:00'),
    });
    const res = await call(t, 'GET', `/events/${target.id}?_method=DELETE`, {
      as: 'admin',
      headers: { 'X-HTTP-Method-Override': 'DELETE' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('publish');
    expect((await call(t, 'GET', `/events/${target.id}`)).status).toBe(200);
  });
});
