// Everything outside the calendar namespace passes through to the upstream WordPress: status, headers, body.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
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
