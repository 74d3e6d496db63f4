import { describe, expect, it } from 'vitest';
import { guard } from '../../test/slack.ts';
import { buildQuery, WpClient } from './client.ts';

const client = (languageParam: string | null) =>
  new WpClient({
    baseUrl: 'https://wp.test/wp-json/',
    timeoutMs: 1000,
    languageParam,
    defaultLanguage: 'en',
  });

describe('WpClient.url', () => {
  it.each([
    ['lang', 'es', 'https://wp.test/wp-json/wp/v2/tribe_events?per_page=5&lang=es'],
    ['lang', 'en', 'https://wp.test/wp-json/wp/v2/tribe_events?per_page=5&lang=en'],
    ['wpml_language', 'es', 'https://wp.test/wp-json/wp/v2/tribe_events?per_page=5&wpml_language=es'],
    [null, 'es', 'https://wp.test/wp-json/wp/v2/tribe_events?per_page=5'],
  ])('sends the language as the mapping names it (%s, %s)', (param, lang, url) => {
    expect(client(param).url('/wp/v2/tribe_events', { per_page: 5 }, lang)).toBe(url);
  });

  it('leaves the language out when the call names none', () => {
    expect(client('lang').url('/wp/v2/types')).toBe('https://wp.test/wp-json/wp/v2/types');
  });
});

describe('buildQuery', () => {
  it('joins lists with commas and drops absent values', () => {
    expect(buildQuery({ include: [3, 4], status: undefined, search: 'a b', hide_empty: false })).toBe(
      '?include=3%2C4&search=a+b&hide_empty=false',
    );
    expect(buildQuery({})).toBe('');
  });
});

/** A WordPress that takes `delayMs` for every call and, like PHP, finishes a call whose client has gone. */
async function slowWordPress(delayMs: number) {
  const { createServer } = await import('node:http');
  const state = { inFlight: 0, maxInFlight: 0, calls: 0 };
  const server = createServer((_req, res) => {
    state.calls++;
    state.maxInFlight = Math.max(state.maxInFlight, ++state.inFlight);
    setTimeout(() => {
      state.inFlight--;
      if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    state,
    url: `http://127.0.0.1:${port}/wp-json`,
    close: () => new Promise((r) => server.close(r)),
  };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (err: { code?: string }) => err.code,
  );

describe('WpClient requests on the wire', () => {
  it('sends reads past api-fetch’s middleware with what it would add, and writes through it', async () => {
    const { createServer } = await import('node:http');
    const seen: Array<{ method?: string; url?: string; override?: string; accept?: string }> = [];
    const server = createServer((req, res) => {
      seen.push({
        method: req.method,
        url: req.url,
        override: req.headers['x-http-method-override'] as string | undefined,
        accept: req.headers.accept,
      });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const c = new WpClient({
        baseUrl: `http://127.0.0.1:${port}/wp-json`,
        timeoutMs: 5_000,
        languageParam: 'lang',
        defaultLanguage: 'en',
      });
      await c.request({
        path: '/wp/v2/tribe_events',
        query: { include: [3, 4] },
        language: 'es',
        as: 'anonymous',
      });
      await c.request({
        path: '/wp/v2/tribe_events/3',
        method: 'PATCH',
        body: { title: 'x' },
        as: 'anonymous',
      });
      // The URL api-fetch's user-locale middleware made before: `_locale=user` once, after the call's own query.
      expect(seen[0]).toEqual({
        method: 'GET',
        url: '/wp-json/wp/v2/tribe_events?include=3%2C4&_locale=user&lang=es',
        override: undefined,
        accept: 'application/json',
      });
      // A write still goes through the chain: http-v1 sends PATCH as POST with an override, user-locale adds its query.
      expect(seen[1]).toMatchObject({ method: 'POST', override: 'PATCH' });
      expect(new URL(seen[1]!.url!, 'http://x').searchParams.getAll('_locale')).toEqual(['user']);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('WpClient deadlines and slots', () => {
  it('gives the calls of one request one deadline, not one timeout each', async () => {
    const wp = await slowWordPress(400);
    try {
      const c = new WpClient({ baseUrl: wp.url, timeoutMs: 700, languageParam: null, defaultLanguage: 'en' });
      const since = Date.now();
      const t0 = performance.now();
      expect((await c.request({ path: '/wp/v2/a', as: 'anonymous', since })).status).toBe(200);
      // The second call has what is left of the 700 ms (about 300 ms), not 700 ms of its own.
      expect(await failure(c.request({ path: '/wp/v2/b', as: 'anonymous', since }))).toBe('upstream_timeout');
      const ms = performance.now() - t0;
      expect(ms).toBeGreaterThanOrEqual(690);
      expect(ms).toBeLessThan(1_000);
      // A call made past the deadline is not sent at all.
      const before = wp.state.calls;
      expect(await failure(c.request({ path: '/wp/v2/c', as: 'anonymous', since }))).toBe('upstream_timeout');
      expect(wp.state.calls).toBe(before);
    } finally {
      await wp.close();
    }
  });

  it('keeps a timed-out call’s slot while WordPress still runs it, so WordPress never runs more than the bound', async () => {
    const wp = await slowWordPress(400);
    try {
      const c = new WpClient({
        baseUrl: wp.url,
        timeoutMs: 100,
        slotGraceMs: 5_000,
        languageParam: null,
        defaultLanguage: 'en',
        concurrency: 2,
        queue: 50,
      });
      // A storm of calls that each give up after 100 ms, while WordPress takes 400 ms for each.
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) => failure(c.request({ path: `/wp/v2/x${i}`, as: 'anonymous' }))),
      );
      expect(outcomes.filter((o) => o === 'upstream_timeout')).toHaveLength(2);
      expect(outcomes.filter((o) => o === 'upstream_busy')).toHaveLength(10);
      // Once WordPress has finished them, the slots are free again.
      await new Promise((r) => setTimeout(r, 450));
      expect(wp.state.maxInFlight).toBe(2);
      expect(wp.state.inFlight).toBe(0);
      const t0 = performance.now();
      expect(await failure(c.request({ path: '/wp/v2/after', as: 'anonymous' }))).toBe('upstream_timeout');
      expect(performance.now() - t0).toBeLessThan(250);
    } finally {
      await wp.close();
    }
  });

  it('frees the slot after the grace even when WordPress never answers', {
    timeout: guard(15_000),
  }, async () => {
    const wp = await slowWordPress(5_000);
    try {
      const c = new WpClient({
        baseUrl: wp.url,
        serviceAuth: 'index:secret',
        timeoutMs: 100,
        slotGraceMs: 100,
        languageParam: null,
        defaultLanguage: 'en',
        concurrency: 1,
        queue: 5,
      });
      expect(await failure(c.request({ path: '/wp/v2/hung', as: 'anonymous' }))).toBe('upstream_timeout');
      // Held for the grace (100 ms past the deadline): a call now waits for it rather than being sent beside it.
      const queued = c.request({ path: '/wp/v2/next', as: 'service' });
      await new Promise((r) => setTimeout(r, 50));
      expect(wp.state.calls).toBe(1);
      expect(await failure(queued)).toBe('upstream_timeout');
      expect(wp.state.calls).toBe(2);
    } finally {
      await wp.close();
    }
  });
});

describe('WpClient.update', () => {
  it('sends an update again once when WordPress lost its race on an equal meta value, and only then', async () => {
    const { createServer } = await import('node:http');
    const answers = [
      [
        500,
        {
          code: 'rest_meta_database_error',
          message: 'Could not update the meta value.',
          data: { status: 500 },
        },
      ],
      [200, { id: 7 }],
      [
        500,
        { code: 'db_update_error', message: 'Could not update post in the database.', data: { status: 500 } },
      ],
    ] as const;
    let calls = 0;
    const server = createServer((_req, res) => {
      const [status, body] = answers[calls++]!;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as { port: number };
      const c = new WpClient({
        baseUrl: `http://127.0.0.1:${port}/wp-json`,
        timeoutMs: 5_000,
        languageParam: null,
        defaultLanguage: 'en',
      });
      const req = {
        path: '/wp/v2/tribe_events/7',
        method: 'POST' as const,
        body: { title: 'x' },
        as: 'anonymous' as const,
      };
      expect((await c.update<{ id: number }>(req)).body.id).toBe(7);
      expect(calls).toBe(2);
      // Another failure of WordPress's is not sent again.
      expect(await failure(c.update(req))).toBe('upstream_error');
      expect(calls).toBe(3);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
