// HTTP caching of the gateway: ETags and 304s, Cache-Control and Vary, and no authenticated answer ever shared.
import { type IncomingHttpHeaders, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CallResult, call, eventually, openTarget, type Target } from '../harness.ts';
import { get, NS } from './cache-support.ts';
import { type EventRecord, Fixtures, idsOf, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2033, 3);
let t: Target;
let fx: Fixtures;
let base: string;

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  base = t.gateway.url;
});

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

const window = `start_date=${encodeURIComponent(day(1, '00:00:00'))}&end_date=${encodeURIComponent(day(28, '23:59:59'))}`;

describe('anonymous reads', () => {
  it('carry a strong ETag, a public Cache-Control with stale windows, and Vary', async () => {
    const res = await get(base, '/events?per_page=10');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(res.headers.get('cache-control')).toMatch(
      /^public, max-age=\d+, stale-while-revalidate=\d+, stale-if-error=\d+$/,
    );
    expect(res.headers.get('vary')).toBe('Authorization, Cookie, Accept-Encoding, Origin');
    // The same representation (its gzip, made off the request path, has a validator of its own).
    const identity = { 'Accept-Encoding': 'identity' };
    const again = await get(base, '/events?per_page=10', identity);
    expect(again.headers.get('etag')).toBe(res.headers.get('etag'));
    expect(again.text).toBe(res.text);
  });

  it('answer If-None-Match with a 304 that keeps ETag, Cache-Control and Vary and has no body', async () => {
    // One representation throughout: a stored answer's gzip (its own validator) is made off the request path.
    const identity = { 'Accept-Encoding': 'identity' };
    const first = await get(base, '/events?per_page=10', identity);
    const etag = first.headers.get('etag')!;
    const res = await get(base, '/events?per_page=10', { ...identity, 'If-None-Match': etag });
    expect(res.status).toBe(304);
    expect(res.text).toBe('');
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
    expect(res.headers.get('vary')).toBe(first.headers.get('vary'));
    expect(res.headers.get('x-wp-total')).toBeNull();
  });

  it('go out with the same headers through express (a caller with an analytics cookie) as from the fast path', async () => {
    const h = { 'Accept-Encoding': 'identity', 'X-Request-Id': 'same-id' };
    await get(base, '/events?per_page=4', h);
    const fast = await get(base, '/events?per_page=4', h);
    const viaExpress = await get(base, '/events?per_page=4', { ...h, Cookie: '_ga=GA1.1.1' });
    const sent = (r: { headers: Headers }) => {
      const out: Record<string, string> = {};
      r.headers.forEach((v, k) => {
        if (!['date', 'age', 'connection', 'keep-alive'].includes(k)) out[k] = v;
      });
      return out;
    };
    expect(viaExpress.text).toBe(fast.text);
    expect(sent(viaExpress)).toEqual(sent(fast));
  });

  it('answer HEAD with the headers and no body', async () => {
    const res = await fetch(`${base}${NS}/events?per_page=10`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"/);
    expect(await res.text()).toBe('');
  });

  it('share one entry whatever the parameter order', async () => {
    const identity = { 'Accept-Encoding': 'identity' };
    const a = await get(base, `/events?per_page=3&page=1&${window}`, identity);
    const b = await get(base, `/events?${window}&page=1&per_page=3`, identity);
    expect(b.headers.get('etag')).toBe(a.headers.get('etag'));
  });

  it('are not stored when they fail', async () => {
    const res = await get(base, '/events?per_page=oops');
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/public/);
  });

  it.each([
    ['a parameter the stages refuse', '/events?per_page=oops', 400],
    ['a route the namespace does not have', '/nowhere', 404],
    ['a path segment that is not valid percent-encoding', '/events/by-slug/%E0%A4%A', 400],
  ])('are refused with no-store and Vary, for %s', async (_what, path, status) => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${base}${NS}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(res.headers.get('cache-control'), `${method} ${path}`).toBe('no-store');
      expect(res.headers.get('vary'), `${method} ${path}`).toMatch(/Authorization/);
    }
  });

  it('are refused with no-store before any route is matched (an unsafe path, OPTIONS of no route)', async () => {
    const unsafe = await fetch(`${base}${NS}/events/%252e%252e/%252e%252e/wp/v2/users`);
    expect(unsafe.status).toBe(404);
    expect(unsafe.headers.get('cache-control'), 'unsafe').toBe('no-store');
    const options = await fetch(`${base}${NS}/nowhere`, { method: 'OPTIONS' });
    expect(options.status).toBe(404);
    expect(options.headers.get('cache-control'), 'options').toBe('no-store');
  });
});

describe('authenticated reads', () => {
  it('are private, no-store, and never the shared entry', async () => {
    const anon = await get(base, '/events?per_page=10');
    const res = await call(t, 'GET', '/events?per_page=10', { as: 'editor' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('etag')).not.toBe(anon.headers.get('etag'));
  });

  it('never reach an anonymous caller, even after an editor asked for the same URL first', async () => {
    const draft = await fx.event({
      title: `Draft ${tok}`,
      status: 'draft',
      start_date: day(2),
      end_date: day(2, '12:00:00'),
    });
    const pub = await fx.event({ title: `Public ${tok}`, start_date: day(3), end_date: day(3, '12:00:00') });
    const path = `/events?${window}&search=${tok}&status=publish,draft`;
    const editor = await call(t, 'GET', path, { as: 'editor' });
    const read = await call<EventRecord>(t, 'GET', `/events/${draft.id}`, { as: 'editor' });
    expect(read.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const anon = await call(t, 'GET', path);
      if (anon.status === 200) {
        expect(idsOf(anon)).not.toContain(draft.id);
        expect(idsOf(anon)).toContain(pub.id);
      }
      expect(anon.headers.get('cache-control') ?? '').not.toMatch(/private/);
      if (editor.status === 200 && idsOf(editor).includes(draft.id))
        expect(anon.body).not.toEqual(editor.body);
      const single = await call(t, 'GET', `/events/${draft.id}`);
      expect(single.status).not.toBe(200);
    }
  });
});

describe('writes through the gateway', () => {
  it('show within a second in the lists and records they touched (at once to the writer)', async () => {
    const path = `/events?${window}&search=Fresh${tok}`;
    expect(idsOf(await call(t, 'GET', path))).toEqual([]);
    const created = await fx.event({
      title: `Fresh${tok}`,
      start_date: day(5),
      end_date: day(5, '12:00:00'),
    });
    const listed = (r: CallResult) => idsOf(r).join() === String(created.id);
    expect(idsOf(await call(t, 'GET', path, { as: 'admin' }))).toEqual([created.id]);
    expect(idsOf(await eventually(() => call(t, 'GET', path), listed))).toEqual([created.id]);
    const before = await call<EventRecord>(t, 'GET', `/events/${created.id}`);
    expect(before.body.title).toBe(`Fresh${tok}`);
    const upd = await call(t, 'POST', `/events/${created.id}`, {
      as: 'admin',
      body: { title: `Fresh${tok} renamed` },
    });
    expect(upd.status).toBe(200);
    const renamed = (r: CallResult<EventRecord>) => r.body.title === `Fresh${tok} renamed`;
    expect((await call<EventRecord>(t, 'GET', `/events/${created.id}`, { as: 'admin' })).body.title).toBe(
      `Fresh${tok} renamed`,
    );
    expect(
      (await eventually(() => call<EventRecord>(t, 'GET', `/events/${created.id}`), renamed)).body.title,
    ).toBe(`Fresh${tok} renamed`);
    const del = await call(t, 'DELETE', `/events/${created.id}`, { as: 'admin' });
    expect(del.status).toBe(200);
    expect(idsOf(await call(t, 'GET', path))).toEqual([]);
  });
});

describe('purge-all for operators', () => {
  const purge = (as?: 'admin' | 'editor') =>
    fetch(`${base}/calendar-gateway/v1/purge`, {
      method: 'POST',
      headers: as ? { Authorization: t.auth[as] } : {},
    });

  it.each([
    [undefined, 401],
    ['editor', 403],
  ] as const)('refuses %s callers with %i', async (as, status) => {
    const res = await purge(as);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { code: string }).code).toBe('rest_forbidden');
  });

  it('drops every cached answer for an administrator', async () => {
    await get(base, '/events?per_page=4');
    expect(t.gateway.deps.cache!.size.entries).toBeGreaterThan(0);
    const res = await purge('admin');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(t.gateway.deps.cache!.size.entries).toBe(0);
  });
});

describe('status and health for operators', () => {
  const ops = (path: string, as?: 'admin' | 'editor') =>
    fetch(`${base}/calendar-gateway/v1/${path}`, { headers: as ? { Authorization: t.auth[as] } : {} });

  it.each([
    [undefined, 401],
    ['editor', 403],
  ] as const)('refuses the status to %s callers with %i, without any figure', async (as, status) => {
    const res = await ops('status', as);
    expect(res.status).toBe(status);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.code).toBe('rest_forbidden');
    expect(body).not.toHaveProperty('indexes');
  });

  it('shows an administrator the upstream, each event index and the cache tiers', async () => {
    await get(base, '/events?per_page=3');
    const res = await ops('status', 'admin');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const s = (await res.json()) as {
      version: string;
      upstream: { url: string; reachable: boolean; latency_ms: number };
      indexes: unknown[];
      cache: {
        enabled: boolean;
        entries: number;
        redis: string;
        answered: { memory: number; wordpress: number };
      };
    };
    expect(s.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(s.upstream).toMatchObject({ url: t.upstream, reachable: true });
    expect(s.upstream.latency_ms).toBeGreaterThanOrEqual(0);
    const index = t.gateway.deps.indexes.all().find((i) => i.language === t.mapping.language.default)!;
    expect(s.indexes).toContainEqual(
      expect.objectContaining({ language: index.language, events: index.size, refresh_failing: false }),
    );
    expect(index.size).toBeGreaterThan(0);
    expect(s.cache).toMatchObject({ enabled: true, redis: 'off' });
    expect(s.cache.entries).toBe(t.gateway.deps.cache!.size.entries);
    expect(s.cache.entries).toBeGreaterThan(0);
    // The list read above was answered; the figures count it.
    expect(s.cache.answered.memory + s.cache.answered.wordpress).toBeGreaterThan(0);
  });

  it('answers health to anyone, uncached', async () => {
    const res = await ops('health');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });
});

describe('compression', () => {
  /** A raw request, so the body arrives as sent (fetch would decompress it). */
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

  it('compresses answers for signed-in callers too, and never stores them', async () => {
    const path = '/events?per_page=10&gz=2';
    const plain = await raw(path, { 'Accept-Encoding': 'identity', Authorization: t.auth.editor });
    const gz = await raw(path, { 'Accept-Encoding': 'gzip', Authorization: t.auth.editor });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('private, no-store');
    expect(gz.headers.etag).toBeUndefined();
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('sends stored answers gzipped to callers who accept it once the gzip is made, the same bytes once unzipped', async () => {
    const path = '/events?per_page=10&gz=1';
    const plain = await raw(path, { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    // The first caller who accepts gzip is not kept waiting while it is made: the stored bytes go out as they are.
    const first = await raw(path, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.headers.etag).toBe(plain.headers.etag);
    expect(first.body.equals(plain.body)).toBe(true);
    // Made off the request path, the gzip is then sent from the cache.
    const gz = await vi.waitFor(async () => {
      const r = await raw(path, { 'Accept-Encoding': 'gzip, deflate, br' });
      expect(r.headers['content-encoding']).toBe('gzip');
      return r;
    });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    expect(gz.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(gz.headers.vary).toContain('Accept-Encoding');
    // Each representation has its own strong validator; either one revalidates.
    expect(gz.headers.etag).not.toBe(plain.headers.etag);
    const again = await raw(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': String(plain.headers.etag) });
    expect(again.status).toBe(304);
    const gzAgain = await raw(path, { 'Accept-Encoding': 'gzip', 'If-None-Match': String(gz.headers.etag) });
    expect(gzAgain.status).toBe(304);
    expect(gzAgain.headers.etag).toBe(gz.headers.etag);
  });
});
