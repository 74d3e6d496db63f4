// UPSTREAM_URL names the site by another host than the one WordPress calls itself by (compose's `http://wordpress`
// for a site whose home is `http://localhost:8080`): the gateway calls the operator's host, and rewrites the links
// WordPress writes with its own host onto the gateway. The real WordPress is reached as `localhost` while its home is
// `127.0.0.1`; the mock answers under a second host while naming itself by its first.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildSeed } from '../../mocks/seed-data.ts';
import { startMockWordPress } from '../../mocks/wordpress/index.ts';
import { configSchema } from '../../src/config.ts';
import { type Gateway, loadMapping, startGateway } from '../../src/gateway.ts';
import { upstreamDeadlineMs } from '../slack.ts';
import { token } from './fixtures.ts';

const target = inject('target');
const tok = token();
let gateway: Gateway;
/** The REST root as WordPress names itself, and the site URL the operator configured (another host). */
let named: string;
let operatorSite: string;
let password: string;
const hosts = new Set<string>();
let closeUpstream = async () => {};

beforeAll(async () => {
  const mapping = await loadMapping(target.mapping);
  if (target.kind === 'mock') {
    const id = Math.random().toString(36).slice(2, 8);
    named = `http://localhost-${id}.test:8080/wp-json`;
    operatorSite = `http://wordpress-${id}.test`;
    password = 'mock-application-password';
    const mock = startMockWordPress({
      mapping,
      baseUrl: named,
      aliases: [operatorSite],
      seed: buildSeed(mapping, new Date()),
      usersPassword: password,
    });
    mock.server.events.on('request:start', ({ request }) => hosts.add(new URL(request.url).host));
    closeUpstream = async () => mock.close();
  } else {
    const up = inject('upstream');
    named = up.url;
    password = up.usersPassword;
    // The site's home is http://127.0.0.1:PORT; the same server answers as localhost.
    operatorSite = new URL(up.url).origin.replace('127.0.0.1', 'localhost');
  }
  expect(new URL(operatorSite).host).not.toBe(new URL(named).host);
  const config = configSchema.parse({
    port: 0,
    host: '127.0.0.1',
    upstreamUrl: operatorSite,
    upstreamAuth: `admin:${password}`,
    mapping: target.mapping,
    pollIntervalMs: 0,
    upstreamTimeoutMs: upstreamDeadlineMs,
    logLevel: 'silent',
  });
  gateway = await startGateway({ ...config, upstreamUrl: operatorSite }, { quiet: true });
});

afterAll(async () => {
  await gateway?.close();
  await closeUpstream();
});

describe('an UPSTREAM_URL on another host than the site names itself by', () => {
  it("keeps the operator's scheme and host for every call, and knows the site's own name", async () => {
    expect(gateway.deps.wp.options.baseUrl).toBe(`${operatorSite}/wp-json`);
    expect(gateway.deps.wp.options.canonicalBaseUrl).toBe(named);
    const res = await fetch(`${gateway.url}/wp-json/calendar/events/v1/events?per_page=3`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { events: unknown[] }).events.length).toBeGreaterThan(0);
    // The mock sees which host each call went to: none went to the host the site names itself by.
    if (target.kind === 'mock') {
      expect([...hosts]).toContain(new URL(operatorSite).host);
      expect([...hosts]).not.toContain(new URL(named).host);
    }
  });

  it("rewrites WordPress's own links (written with its own host) onto the gateway", async () => {
    const api = `${gateway.url}/wp-json/calendar/events/v1`;
    const admin = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
    const made = await fetch(`${api}/tags`, {
      method: 'POST',
      headers: { Authorization: admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `Host ${tok}` }),
    });
    expect(made.status).toBe(201);
    const term = (await made.json()) as { id: number; _links: unknown };
    try {
      expect(made.headers.get('location')).toBe(`${gateway.url}/wp-json/wp/v2/tags/${term.id}`);
      const read = await fetch(`${api}/tags/${term.id}`);
      const links = JSON.stringify(((await read.json()) as { _links: unknown })._links);
      expect(links).toContain(`${gateway.url}/wp-json/wp/v2/tags/${term.id}`);
      expect(links).not.toContain(named);
      expect(links).not.toContain(operatorSite);
    } finally {
      await fetch(`${api}/tags/${term.id}`, { method: 'DELETE', headers: { Authorization: admin } });
    }
  });
});
