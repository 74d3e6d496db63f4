// The purgers against msw mocks of Fastly's and Cloudflare's documented purge APIs, and Varnish's xkey VCL.
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOUDFLARE_API, cloudflare, FASTLY_API, fastly, varnish } from './backends.ts';
import { CdnPurger } from './purger.ts';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const SERVICE = 'SU1Z0isxPaozGVKXdv0eY';
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const TOKEN = 'tok-0123456789abcdef';
const quick = { backoffMs: 1, windowMs: 20 };

/** Fastly's POST /service/{id}/purge: the keys it was sent, per call; `fail` answers the first calls. */
function fastlyApi(fail: Array<{ status: number; headers?: Record<string, string> }> = []) {
  const calls: string[][] = [];
  const all: number[] = [];
  server.use(
    http.post(`${FASTLY_API}/service/:id/purge`, async ({ request, params }) => {
      if (params.id !== SERVICE || request.headers.get('fastly-key') !== TOKEN)
        return HttpResponse.json({ msg: 'Provided credentials are missing or invalid' }, { status: 401 });
      const f = fail.shift();
      if (f) return HttpResponse.json({ msg: 'no' }, { status: f.status, headers: f.headers });
      const { surrogate_keys: keys } = (await request.json()) as { surrogate_keys: string[] };
      if (keys.length > 256) return HttpResponse.json({ msg: 'too many keys' }, { status: 400 });
      calls.push(keys);
      return HttpResponse.json(Object.fromEntries(keys.map((k) => [k, `id-${k}`])));
    }),
    http.post(`${FASTLY_API}/service/:id/purge_all`, ({ request }) => {
      if (request.headers.get('fastly-key') !== TOKEN) return HttpResponse.json({}, { status: 401 });
      all.push(Date.now());
      return HttpResponse.json({ status: 'ok' });
    }),
  );
  return { calls, all };
}

/** Cloudflare's POST /zones/{zone}/purge_cache: at most 100 tags a call. */
function cloudflareApi(fail: number[] = []) {
  const calls: Array<{ tags?: string[]; purge_everything?: boolean }> = [];
  server.use(
    http.post(`${CLOUDFLARE_API}/zones/:zone/purge_cache`, async ({ request, params }) => {
      if (params.zone !== ZONE || request.headers.get('authorization') !== `Bearer ${TOKEN}`)
        return HttpResponse.json(
          { success: false, errors: [{ code: 10000, message: 'Authentication error' }] },
          { status: 403 },
        );
      const status = fail.shift();
      if (status) return HttpResponse.json({ success: false, errors: [] }, { status });
      const body = (await request.json()) as { tags?: string[]; purge_everything?: boolean };
      if ((body.tags?.length ?? 0) > 100)
        return HttpResponse.json(
          { success: false, errors: [{ code: 1070, message: 'too many tags' }] },
          { status: 400 },
        );
      calls.push(body);
      return HttpResponse.json({ success: true, errors: [], messages: [], result: { id: ZONE } });
    }),
  );
  return calls;
}

describe('the Fastly purger', () => {
  it('sends the tags of one window in one call, with the service id and Fastly-Key', async () => {
    const api = fastlyApi();
    const p = new CdnPurger(fastly(FASTLY_API, SERVICE, TOKEN), quick);
    p.purge(['list:event', 'event:1']);
    p.purge(['event:1', 'venue:2']);
    p.purge(['links:venue']);
    await p.flush();
    expect(api.calls).toEqual([['event:1', 'links:venue', 'list:event', 'venue:2']]);
    expect(p.stats).toMatchObject({ calls: { ok: 1, retried: 0, failed: 0 }, tags: 4 });
  });

  it('coalesces within the window, and not beyond it', async () => {
    const api = fastlyApi();
    const p = new CdnPurger(fastly(FASTLY_API, SERVICE, TOKEN), { backoffMs: 1, windowMs: 100 });
    p.purge(['event:1']);
    await new Promise((r) => setTimeout(r, 30));
    p.purge(['event:2']);
    await new Promise((r) => setTimeout(r, 150));
    expect(api.calls).toEqual([['event:1', 'event:2']]);
    p.purge(['event:3']);
    await p.flush();
    expect(api.calls).toEqual([['event:1', 'event:2'], ['event:3']]);
  });

  it('splits more than 256 keys into calls Fastly accepts', async () => {
    const api = fastlyApi();
    const p = new CdnPurger(fastly(FASTLY_API, SERVICE, TOKEN), quick);
    const tags = Array.from({ length: 600 }, (_, i) => `event:${i}`);
    p.purge(tags);
    await p.flush();
    expect(api.calls.map((c) => c.length)).toEqual([256, 256, 88]);
    expect(new Set(api.calls.flat())).toEqual(new Set(tags));
  });

  it('retries a 5xx and a 429 (after its Retry-After), then succeeds', async () => {
    const api = fastlyApi([{ status: 503 }, { status: 429, headers: { 'retry-after': '0' } }]);
    const p = new CdnPurger(fastly(FASTLY_API, SERVICE, TOKEN), quick);
    p.purge(['event:9']);
    await p.flush();
    expect(api.calls).toEqual([['event:9']]);
    expect(p.stats.calls).toEqual({ ok: 1, retried: 2, failed: 0 });
  });

  it('gives up after its attempts, and on a refusal at once, without throwing', async () => {
    fastlyApi([{ status: 500 }, { status: 500 }, { status: 500 }]);
    const p = new CdnPurger(fastly(FASTLY_API, SERVICE, TOKEN), { ...quick, attempts: 3 });
    p.purge(['event:9']);
    await expect(p.flush()).resolves.toBeUndefined();
    expect(p.stats.calls).toEqual({ ok: 0, retried: 2, failed: 1 });
    const refused = new CdnPurger(fastly(FASTLY_API, SERVICE, 'wrong-token-0123456'), quick);
    refused.purge(['event:9']);
    await refused.flush();
    expect(refused.stats.calls).toEqual({ ok: 0, retried: 0, failed: 1 });
  });

  it('purges everything with purge_all, the tags queued with it included', async () => {
    const api = fastlyApi();
    const p = new CdnPurger(fastly(FASTLY_API, SERVICE, TOKEN), quick);
    p.purge(['event:1']);
    p.purge(null);
    await p.flush();
    expect(api.all).toHaveLength(1);
    expect(api.calls).toEqual([]);
    expect(p.stats.all).toBe(1);
  });
});

describe('the Cloudflare purger', () => {
  it('sends {tags} with the Bearer token, at most 100 a call', async () => {
    const calls = cloudflareApi();
    const p = new CdnPurger(cloudflare(CLOUDFLARE_API, ZONE, TOKEN), quick);
    const tags = Array.from({ length: 250 }, (_, i) => `event:${i}`);
    p.purge(tags);
    await p.flush();
    expect(calls.map((c) => c.tags?.length)).toEqual([100, 100, 50]);
    expect(new Set(calls.flatMap((c) => c.tags ?? []))).toEqual(new Set(tags));
  });

  it('retries a 502 and a 429, and purges everything with purge_everything', async () => {
    const calls = cloudflareApi([502, 429]);
    const p = new CdnPurger(cloudflare(CLOUDFLARE_API, ZONE, TOKEN), quick);
    p.purge(['list:event']);
    await p.flush();
    p.purge(null);
    await p.flush();
    expect(calls).toEqual([{ tags: ['list:event'] }, { purge_everything: true }]);
    expect(p.stats.calls).toEqual({ ok: 2, retried: 2, failed: 0 });
  });

  it('counts a wrong zone as failed, and tries it once', async () => {
    cloudflareApi();
    const p = new CdnPurger(cloudflare(CLOUDFLARE_API, 'f'.repeat(32), TOKEN), quick);
    p.purge(['list:event']);
    await p.flush();
    expect(p.stats.calls).toEqual({ ok: 0, retried: 0, failed: 1 });
  });
});

describe('the Varnish purger', () => {
  it('sends PURGE with xkey-purge to every Varnish, and BAN for everything', async () => {
    const seen: string[] = [];
    for (const host of ['http://varnish-a.test', 'http://varnish-b.test']) {
      server.use(
        http.all(`${host}/`, ({ request }) => {
          seen.push(
            `${host} ${request.method} ${request.headers.get('xkey-purge') ?? ''} ${request.headers.get('x-purge-token') ?? ''}`,
          );
          return new HttpResponse('ok');
        }),
      );
    }
    const p = new CdnPurger(varnish(['http://varnish-a.test/', 'http://varnish-b.test/'], TOKEN), quick);
    p.purge(['event:1', 'list:event']);
    await p.flush();
    p.purge(null);
    await p.flush();
    expect(seen.sort()).toEqual([
      `http://varnish-a.test BAN  ${TOKEN}`,
      `http://varnish-a.test PURGE event:1 list:event ${TOKEN}`,
      `http://varnish-b.test BAN  ${TOKEN}`,
      `http://varnish-b.test PURGE event:1 list:event ${TOKEN}`,
    ]);
  });
});
