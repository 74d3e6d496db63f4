import { Writable } from 'node:stream';
import { HttpResponse, http } from 'msw';
import pino from 'pino';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSeed } from '../mocks/seed-data.ts';
import { startMockWordPress } from '../mocks/wordpress/index.ts';
import { guard } from '../test/slack.ts';
import { configSchema } from './config.ts';
import { type Gateway, loadMapping, startGateway } from './gateway.ts';
import { ProbeError } from './wp/probe.ts';

const mapping = await loadMapping('mappings/tec.json');
const PASSWORD = 'lifecycle-password';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const host = () => `http://wordpress-${Math.random().toString(36).slice(2, 8)}.test`;
const configFor = (upstreamUrl: string) => ({
  ...configSchema.parse({
    port: 0,
    host: '127.0.0.1',
    upstreamAuth: `admin:${PASSWORD}`,
    pollIntervalMs: 0,
    logLevel: 'silent',
  }),
  upstreamUrl,
});
const wordpress = (site: string) => {
  const wp = startMockWordPress({
    mapping,
    baseUrl: `${site}/wp-json`,
    seed: buildSeed(mapping, new Date(), { events: 20 }),
    usersPassword: PASSWORD,
  });
  cleanups.push(() => wp.close());
  return wp;
};
const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    done();
  },
});
const started = (g: Gateway) => {
  cleanups.push(() => g.close());
  return g;
};

describe('start-up and shutdown', () => {
  it('answers alive but not ready while WordPress cannot be reached, and becomes ready once it can', {
    timeout: guard(20_000),
  }, async () => {
    const site = host();
    let url = '';
    const listening = new Promise<void>((resolve) => {
      const gateway = startGateway(configFor(`${site}/wp-json`), {
        retry: true,
        log: pino({ level: 'warn' }, sink),
        onListening: (u) => {
          url = u;
          resolve();
        },
      });
      cleanups.push(async () => (await gateway).close());
    });
    await listening;
    const health = await fetch(`${url}/calendar-gateway/v1/health`);
    expect(health.status).toBe(200);
    const notReady = await fetch(`${url}/calendar-gateway/v1/ready`);
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get('retry-after')).toBe('5');
    const starting = (await notReady.json()) as {
      code: string;
      message: string;
      data: { reasons: string[] };
    };
    expect(starting.code).toBe('gateway_starting');
    expect(starting.data.reasons).toContain('the event index of the default language is not built yet');
    // After a failed attempt: why, as an error code (no address), and when the next try is.
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${url}/calendar-gateway/v1/ready`)).json()) as typeof starting).message,
      )
      .toMatch(
        /WordPress could not be reached or failed \(upstream_unavailable, attempt \d+\); next try in \d+ s/,
      );
    // The log names the system error behind `fetch failed`: the unknown host.
    const retried = lines.find((l) => l.attempt === 1);
    expect(retried?.cause).toEqual(expect.stringContaining(new URL(site).hostname));
    expect(String(retried?.msg)).toContain(String(retried?.cause));
    expect((await fetch(`${url}/wp-json/calendar/events/v1/events`)).status).toBe(503);
    wordpress(site);
    let ready: Response | undefined;
    for (let i = 0; i < 40 && ready?.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      ready = await fetch(`${url}/calendar-gateway/v1/ready`);
    }
    expect(ready?.status).toBe(200);
    const report = (await ready?.json()) as { status: string; index: Record<string, unknown> };
    expect(report).toMatchObject({ status: 'ready', index: { built_at: expect.any(String) } });
    // Public: the index counts drafts, private and trashed events, so the count is for operators (/status) only.
    expect(report.index).not.toHaveProperty('events');
    expect((await fetch(`${url}/wp-json/calendar/events/v1/events`)).status).toBe(200);
  });

  it('throws the first failure at once without retry', async () => {
    await expect(startGateway(configFor(`${host()}/wp-json`))).rejects.toMatchObject({
      code: 'upstream_unavailable',
    });
  });

  it("finds the REST root from the site's address, as WordPress clients do", async () => {
    const site = host();
    wordpress(site);
    const g = started(await startGateway(configFor(site)));
    expect(g.deps.wp.options.baseUrl).toBe(`${site}/wp-json`);
    expect((await fetch(`${g.url}/wp-json/calendar/events/v1/events`)).status).toBe(200);
  });

  it('refuses to start, naming the fix, when the URL is not WordPress', async () => {
    const site = host();
    const wp = wordpress(host());
    wp.server.use(http.get(`${site}/`, () => HttpResponse.html('<p>not WordPress</p>')));
    const err = await startGateway(configFor(site), { retry: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProbeError);
    expect(String((err as Error).message)).toContain('set UPSTREAM_URL to the REST root');
  });

  it('lets a request in flight finish on close, then stops listening', async () => {
    const site = host();
    const wp = wordpress(site);
    const g = await startGateway(configFor(`${site}/wp-json`));
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let arrived = () => {};
    const inFlight = new Promise<void>((r) => {
      arrived = r;
    });
    // Holds the page read of the next list until released; answering nothing lets the mock's handler answer.
    wp.server.use(
      http.get(`${site}/wp-json/wp/v2/tribe_events`, async () => {
        arrived();
        await held;
      }),
    );
    const slow = fetch(`${g.url}/wp-json/calendar/events/v1/events?per_page=3`);
    await inFlight;
    const closing = g.close();
    await new Promise((r) => setTimeout(r, 100));
    await expect(fetch(`${g.url}/calendar-gateway/v1/health`)).rejects.toThrow();
    release();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { events: unknown[] }).events).toHaveLength(3);
    await closing;
  });

  it('closes without waiting out the grace for the connection a client opened after abandoning a request', async () => {
    const site = host();
    const wp = wordpress(site);
    const g = await startGateway(configFor(`${site}/wp-json`), { graceMs: 20_000 });
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let arrived = () => {};
    const inFlight = new Promise<void>((r) => {
      arrived = r;
    });
    wp.server.use(
      http.get(`${site}/wp-json/wp/v2/tribe_events`, async () => {
        arrived();
        await held;
      }),
    );
    // A client keeping idle connections as long as the gateway allows (browsers, proxies, undici configured so).
    const client = new Agent({ keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
    try {
      expect((await undiciFetch(`${g.url}/calendar-gateway/v1/health`, { dispatcher: client })).status).toBe(
        200,
      );
      const controller = new AbortController();
      const abandoned = undiciFetch(`${g.url}/wp-json/calendar/events/v1/events?per_page=3`, {
        dispatcher: client,
        signal: controller.signal,
      }).catch((e: unknown) => e);
      await inFlight;
      controller.abort();
      expect(await abandoned).toBeInstanceOf(Error);
      await new Promise((r) => setTimeout(r, 100));
      const forced = vi.spyOn(g.server, 'closeAllConnections');
      await g.close();
      expect(forced).not.toHaveBeenCalled();
    } finally {
      release();
      await client.destroy();
    }
  });

  it('bounds the WordPress calls in flight: a spike of cold URLs queues, then gets 503 with Retry-After, while cached reads go on', async () => {
    const site = host();
    const wp = wordpress(site);
    const g = started(
      await startGateway({ ...configFor(`${site}/wp-json`), upstreamConcurrency: 2, upstreamQueue: 2 }),
    );
    const api = `${g.url}/wp-json/calendar/events/v1`;
    expect((await fetch(`${api}/events?per_page=1`)).status).toBe(200); // warm: cached from now on
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inFlight = 0;
    let most = 0;
    wp.server.use(
      http.get(`${site}/wp-json/wp/v2/tribe_events`, async ({ request }) => {
        if (!new URL(request.url).searchParams.has('include')) return;
        most = Math.max(most, ++inFlight);
        await held;
        inFlight--;
      }),
    );
    const cold = Array.from({ length: 8 }, (_, i) => fetch(`${api}/events?per_page=${i + 2}`));
    await new Promise((r) => setTimeout(r, 200));
    const cached = await fetch(`${api}/events?per_page=1`);
    expect(cached.status).toBe(200);
    release();
    const answers = await Promise.all(cold);
    const refused = answers.filter((r) => r.status === 503);
    expect(most).toBeLessThanOrEqual(2);
    // Two in flight and two waiting are admitted; a list miss may need a second call (its venues), which can be
    // refused in turn. Every answer is either the list or the busy refusal.
    expect(answers.map((r) => r.status).every((s) => s === 200 || s === 503)).toBe(true);
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThanOrEqual(4);
    for (const r of refused) {
      expect(r.headers.get('retry-after')).toBe('1');
      expect((await r.json()).code).toBe('upstream_busy');
    }
  });
});

describe('a trash WordPress fails', () => {
  it("is TEC's could-not-delete-… (500) for events and venues alike; WordPress out of reach is not", async () => {
    const site = host();
    const wp = wordpress(site);
    const g = started(await startGateway(configFor(`${site}/wp-json`)));
    const api = `${g.url}/wp-json/calendar/events/v1`;
    const auth = { Authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}` };
    const { events } = (await (await fetch(`${api}/events?per_page=1`)).json()) as {
      events: Array<{ id: number }>;
    };
    const { venues } = (await (await fetch(`${api}/venues?per_page=1`)).json()) as {
      venues: Array<{ id: number }>;
    };
    let status = 500;
    const failing = (rest: string) =>
      // api-fetch sends DELETE as POST with X-HTTP-Method-Override, as WordPress clients do.
      http.post(`${site}/wp-json/wp/v2/${rest}/:id`, ({ request }) => {
        if (request.headers.get('x-http-method-override') !== 'DELETE') return;
        return HttpResponse.json(
          { code: 'rest_cannot_delete', message: 'The post cannot be deleted.' },
          { status },
        );
      });
    wp.server.use(failing('tribe_events'), failing('tribe_venue'));
    const del = async (path: string) => {
      const r = await fetch(`${api}${path}`, { method: 'DELETE', headers: auth });
      return { status: r.status, code: ((await r.json()) as { code: string }).code };
    };
    expect(await del(`/events/${events[0]!.id}`)).toEqual({ status: 500, code: 'could-not-delete-event' });
    expect(await del(`/venues/${venues[0]!.id}`)).toEqual({ status: 500, code: 'could-not-delete-venue' });
    status = 503;
    expect((await del(`/events/${events[0]!.id}`)).code).not.toBe('could-not-delete-event');
  });
});
