// Everything outside the calendar namespace passes through to the upstream WordPress: status, headers, body.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppOptions, createApp } from '../../src/app.ts';
import type { Deps } from '../../src/deps.ts';
import { createLogger } from '../../src/log.ts';
import { WpClient } from '../../src/wp/client.ts';
import { call, openTarget, type Target } from '../harness.ts';
import { expectError, type Json, token } from './fixtures.ts';

let t: Target;
let rest: string;

beforeAll(async () => {
  t = await openTarget();
  rest = t.mapping.event.restBase;
});

afterAll(async () => {
  await t?.close();
});

describe('pass-through to WordPress', () => {
  it('answers a wp/v2 list exactly as the upstream does: status, totals and body', async () => {
    const path = `/wp/v2/${rest}?per_page=1`;
    const direct = await fetch(`${t.upstream}${path}`);
    const proxied = await fetch(`${t.gateway.url}/wp-json${path}`);
    expect(proxied.status).toBe(direct.status);
    expect(proxied.headers.get('x-wp-total')).toBe(direct.headers.get('x-wp-total'));
    expect(proxied.headers.get('x-wp-totalpages')).toBe(direct.headers.get('x-wp-totalpages'));
    expect(proxied.headers.get('content-type')).toBe(direct.headers.get('content-type'));
    expect(await proxied.json()).toEqual(await direct.json());
  });

  it("answers a page the site does not have with WordPress's own 404, and names no internal cause", async () => {
    for (const path of ['/metrics', '/healthz', `/no-such-page-${token()}`]) {
      const res = await fetch(`${t.gateway.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toMatch(/ENOTFOUND|ECONNREFUSED|cause/);
    }
  });

  it('keeps upstream error statuses and bodies', async () => {
    const proxied = await fetch(`${t.gateway.url}/wp-json/wp/v2/${rest}/999999999`);
    const direct = await fetch(`${t.upstream}/wp/v2/${rest}/999999999`);
    expect(proxied.status).toBe(direct.status);
    expect(await proxied.json()).toEqual(await direct.json());
  });

  it('streams request bodies and credentials through, so writes outside the namespace work', async () => {
    const title = `proxy ${token()}`;
    const created = await fetch(`${t.gateway.url}/wp-json/wp/v2/${rest}`, {
      method: 'POST',
      headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title, status: 'draft' }),
    });
    const body = (await created.json()) as Json & { id: number; title: { raw?: string; rendered: string } };
    expect(created.status, JSON.stringify(body)).toBe(201);
    expect(body.title.rendered).toBe(title);
    const removed = await fetch(`${t.gateway.url}/wp-json/wp/v2/${rest}/${body.id}?force=true`, {
      method: 'DELETE',
      headers: { Authorization: t.auth.admin },
    });
    expect(removed.status).toBe(200);
  });

  it('forwards form bodies unread by the gateway', async () => {
    const res = await fetch(`${t.gateway.url}/wp-json/wp/v2/${rest}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ title: 'anonymous attempt' }).toString(),
    });
    // WordPress, not the gateway, refuses an anonymous create.
    expect(res.status).toBe(401);
    expect(((await res.json()) as Json).code).toBe('rest_cannot_create');
  });

  it('announces the calendar API on front-end pages, as TEC does, and not on REST answers', async () => {
    const page = await fetch(`${t.gateway.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-tec-api-version')).toBe('v1');
    expect(page.headers.get('x-tec-api-root')).toBe(`${t.gateway.url}/wp-json/calendar/events/v1/`);
    expect(page.headers.get('x-tec-api-origin')).toBe(t.gateway.url);
    const rest = await fetch(`${t.gateway.url}/wp-json/wp/v2/types`);
    expect(rest.headers.get('x-tec-api-root')).toBeNull();
  });

  it('keeps unknown paths inside the namespace a gateway rest_no_route', async () => {
    expectError(await call(t, 'GET', '/nowhere'), 404, 'rest_no_route');
    expectError(await call(t, 'GET', '/events/abc'), 404, 'rest_no_route');
  });

  it('answers a WordPress-style error when the upstream cannot be reached', async () => {
    const deps = t.gateway.deps;
    const wp = new WpClient({ ...deps.wp.options, baseUrl: 'http://127.0.0.1:9/wp-json' });
    const server = createApp({ ...deps, wp }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/wp-json/wp/v2/${rest}`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: 'upstream_unavailable', data: { status: 503 } });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

/** Serves `app` on a loopback port until `fn` is done. */
async function serving<T>(app: ReturnType<typeof createApp>, fn: (url: string) => Promise<T>): Promise<T> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    return await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** A stand-in WordPress that records the headers it is sent and answers a page or JSON under /wp-json. */
async function stubSite(): Promise<{ url: string; seen: IncomingHttpHeaders[]; server: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    if ((req.url ?? '').startsWith('/wp-json/page')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' });
      res.end('<!doctype html><form action="wp-login.php">log in</form>');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const against = (site: string, extra: Partial<Deps> = {}, opts: AppOptions = {}) => {
  const deps = t.gateway.deps;
  const wp = new WpClient({ ...deps.wp.options, baseUrl: `${site}/wp-json` });
  return createApp({ ...deps, wp, ...extra }, opts);
};

describe('what the proxy passes on', () => {
  const forwarded = {
    'X-Forwarded-For': '10.1.2.3',
    'X-Forwarded-Proto': 'https',
    'X-Forwarded-Host': 'evil.example',
    Forwarded: 'for=10.1.2.3;proto=https;host=evil.example',
  };

  it('passes no X-Forwarded-* or Forwarded a caller sends to WordPress, unless the caller is a configured proxy', async () => {
    const site = await stubSite();
    try {
      await serving(against(site.url), async (gw) => {
        await (await fetch(`${gw}/wp-json/wp/v2/posts`, { headers: forwarded })).text();
      });
      for (const h of ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'forwarded']) {
        expect(site.seen.at(-1)?.[h], h).toBeUndefined();
      }
      await serving(against(site.url, {}, { trustProxy: ['loopback'] }), async (gw) => {
        await (await fetch(`${gw}/wp-json/wp/v2/posts`, { headers: forwarded })).text();
      });
      expect(site.seen.at(-1)?.['x-forwarded-proto']).toBe('https');
    } finally {
      site.server.close();
    }
  });

  it('adds CORS headers to REST answers only, never to a page served under /wp-json', async () => {
    const site = await stubSite();
    try {
      await serving(against(site.url), async (gw) => {
        const headers = { Origin: 'https://app.example' };
        const page = await fetch(`${gw}/wp-json/page`, { headers });
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        expect(page.headers.get('access-control-allow-origin')).toBeNull();
        expect(page.headers.get('access-control-allow-credentials')).toBeNull();
        const json = await fetch(`${gw}/wp-json/wp/v2/posts`, { headers });
        expect(json.headers.get('access-control-allow-origin')).toBe('https://app.example');
        expect(json.headers.get('access-control-allow-credentials')).toBe('true');
      });
    } finally {
      site.server.close();
    }
  });

  it('logs a failed proxied request without the password or nonce of its query', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger('warn', { destination: sink });
    await serving(against('http://127.0.0.1:9', { log }), async (gw) => {
      const res = await fetch(
        `${gw}/wp-login.php?log=admin&pwd=hunter2-${token()}&_wpnonce=n0nce1234&redirect_to=%2Fwp-admin%2F`,
      );
      expect(res.status).toBe(503);
    });
    const line = lines
      .map((l) => JSON.parse(l) as Json)
      .find((l) => l.msg === 'proxy to the upstream WordPress failed');
    expect(line?.url).toBe(
      '/wp-login.php?log=admin&pwd=[redacted]&_wpnonce=[redacted]&redirect_to=%2Fwp-admin%2F',
    );
    expect(lines.join('\n')).not.toMatch(/hunter2|n0nce1234/);
  });
});

describe('wp/v2 writes through the proxy', () => {
  /** The event's dates as the mapping stores them (TEC's meta keys in mappings/tec.json). */
  const meta = (d: string) => {
    const fields = t.mapping.event.fields as Record<string, { meta?: string } | undefined>;
    const values: Record<string, string> = {
      start_date: `${d} 10:00:00`,
      end_date: `${d} 12:00:00`,
      utc_start_date: `${d} 10:00:00`,
      utc_end_date: `${d} 12:00:00`,
      timezone: 'UTC',
    };
    return Object.fromEntries(
      Object.entries(values).flatMap(([field, v]) => {
        const key = fields[field]?.meta;
        return key ? [[key, v]] : [];
      }),
    );
  };
  const wpv2 = (method: string, path: string, body?: Json) =>
    fetch(`${t.gateway.url}/wp-json/wp/v2/${rest}${path}`, {
      method,
      headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });

  it('show in the calendar API at once, without waiting for a poll (polling is off here)', async () => {
    expect(t.gateway.deps.wp).toBeDefined();
    const title = `Proxied ${token()}`;
    const created = await wpv2('POST', '', { title, status: 'publish', meta: meta('2034-03-04') });
    const body = (await created.json()) as Json & { id: number };
    expect(created.status, JSON.stringify(body)).toBe(201);
    const id = body.id;
    try {
      const read = await call<Json>(t, 'GET', `/events/${id}`);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(read.body.title).toBe(title);
      const listed = await call<{ events: Json[] }>(
        t,
        'GET',
        `/events?start_date=2034-03-01&end_date=2034-03-31`,
      );
      expect(listed.body.events.map((e) => e.id)).toContain(id);

      // An update through the proxy drops the cached answer and re-reads the event into the index.
      const renamed = `${title} renamed`;
      expect((await wpv2('POST', `/${id}`, { title: renamed })).status).toBe(200);
      expect((await call<Json>(t, 'GET', `/events/${id}`)).body.title).toBe(renamed);
      const moved = await wpv2('POST', `/${id}`, { meta: meta('2034-05-06') });
      expect(moved.status).toBe(200);
      const may = await call<{ events: Json[] }>(
        t,
        'GET',
        `/events?start_date=2034-05-01&end_date=2034-05-31`,
      );
      expect(may.body.events.map((e) => e.id)).toContain(id);
    } finally {
      expect((await wpv2('DELETE', `/${id}?force=true`)).status).toBe(200);
    }
    // Gone at once too.
    expect((await call<Json>(t, 'GET', `/events/${id}`)).status).toBe(404);
    const after = await call<{ events: Json[] }>(
      t,
      'GET',
      `/events?start_date=2034-05-01&end_date=2034-05-31`,
    );
    expect(after.body.events.map((e) => e.id)).not.toContain(id);
  });
});
