// Shared answers are keyed by the parsed arguments: junk parameters, value forms and Origin never split the cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, freshTermLists, openTarget, requestsDuring, type Target } from '../harness.ts';
import { guard } from '../slack.ts';
import { get, peer } from './cache-support.ts';

let t: Target;

beforeAll(async () => {
  t = await openTarget();
});
afterAll(async () => {
  await t.close();
});

/** Names no calendar route takes: the common tracking parameters, and made-up ones. */
const JUNK = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'fbclid',
  'gclid',
  'msclkid',
  '_ga',
  'mc_cid',
  'mc_eid',
];
const junkName = (n: number) => JUNK[n % JUNK.length] ?? `x${n}`;
/** The entry's validator, whichever representation was sent (the gzip's is the same with `-gz`). */
const etagOf = (r: { headers: Headers }) => r.headers.get('etag')?.replace(/-gz"$/, '"');

describe('cache busting', () => {
  it('answers 60 anonymous reads of one list with 60 junk parameters with at most one upstream call', async () => {
    // Warms what a list miss reads besides its page (venues, organizers, terms), as the upstream-calls test does.
    expect((await call(t, 'GET', '/events?per_page=8')).status).toBe(200);
    await freshTermLists(t);
    const answers: Array<Awaited<ReturnType<typeof call>>> = [];
    const calls = await requestsDuring(t.gateway, async () => {
      // Sequential then concurrent: each read is another URL, so each misses the fast path's URL aliases.
      for (let n = 0; n < 30; n++) {
        answers.push(await call(t, 'GET', `/events?per_page=7&${junkName(n)}=${n}&r${n}=${Math.random()}`));
      }
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            call(t, 'GET', `/events?${junkName(i + 30)}=busted-${i}&per_page=7&z${i}=${i}`),
          ),
        )),
      );
    });
    expect(calls.length).toBeLessThanOrEqual(1);
    // Nothing of the junk reaches WordPress.
    expect(JSON.stringify(calls)).not.toMatch(/utm_|fbclid|busted/);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const etags = new Set(answers.map((a) => etagOf(a)));
    expect(etags.size).toBe(1);
    const body = answers[0]!.body as { events: unknown[]; rest_url: string };
    expect(body.events).toHaveLength(7);
    expect(body.rest_url).toMatch(new RegExp(`^${t.api}/events/\\?per_page=7&`));
    expect(body.rest_url).not.toMatch(/utm_|fbclid|busted|r\d|z\d/);
  });

  it('keys the feed and one event by their arguments too, and lets the fast path answer every spelling', async () => {
    const list = await call<{ events: Array<{ id: number }> }>(t, 'GET', '/events?per_page=1');
    const id = list.body.events[0]!.id;
    for (const path of ['/events.ics?per_page=3', `/events/${id}`]) {
      const sep = path.includes('?') ? '&' : '?';
      expect((await call(t, 'GET', `${path}${sep}utm_source=warm`)).status).toBe(200);
      const calls = await requestsDuring(t.gateway, async () => {
        for (let n = 0; n < 5; n++)
          expect((await call(t, 'GET', `${path}${sep}fbclid=${n}`)).status).toBe(200);
      });
      expect(calls, path).toEqual([]);
    }
    // Each spelling the gateway has answered leads the fast path (before express) to the one entry.
    const host = new URL(t.api).host;
    const aliasOf = (url: string) =>
      t.gateway.deps.cache?.aliases.lookup({ url, headers: { host } } as never)?.key;
    const prefix = new URL(t.api).pathname;
    const keys = new Set([0, 1, 2].map((n) => aliasOf(`${prefix}/events/${id}?fbclid=${n}`)));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toBeDefined();
  });

  it('shares one entry between the forms of equal arguments: order, leading zeros, defaults, booleans, lists', async () => {
    const groups = [
      [
        '/events?per_page=6&featured=0',
        '/events?featured=false&per_page=06',
        '/events?page=1&featured=FALSE&per_page=6',
      ],
      [
        '/events?per_page=5&strict_dates=false',
        '/events?per_page=5',
        '/events?PER_PAGE=9&per_page=5&Strict_Dates=1',
      ],
      ['/events?per_page=55', '/events?per_page=50'],
    ];
    for (const urls of groups) {
      const first = await call(t, 'GET', urls[0]!);
      expect(first.status).toBe(200);
      const others: Array<Awaited<ReturnType<typeof call>>> = [];
      const calls = await requestsDuring(t.gateway, async () => {
        for (const url of urls.slice(1)) others.push(await call(t, 'GET', url));
      });
      expect(calls, urls.join(' ')).toEqual([]);
      for (const o of others) {
        expect(o.status).toBe(200);
        expect(etagOf(o)).toBe(etagOf(first));
      }
    }
  });

  it('shares one entry between a list of terms sent comma-separated, spaced, or as an array', async () => {
    const cats = await call<{ categories: Array<{ id: number; slug: string }> }>(
      t,
      'GET',
      '/categories?per_page=2',
    );
    const [a, b] = cats.body.categories;
    expect(b).toBeDefined();
    const first = await call(t, 'GET', `/events?categories=${a!.slug},${b!.id}&per_page=4`);
    expect(first.status).toBe(200);
    const others: Array<Awaited<ReturnType<typeof call>>> = [];
    const calls = await requestsDuring(t.gateway, async () => {
      others.push(await call(t, 'GET', `/events?per_page=4&categories=${a!.slug},%20${b!.id}%20`));
      others.push(await call(t, 'GET', `/events?categories[]=${a!.slug}&categories[]=${b!.id}&per_page=4`));
    });
    expect(calls).toEqual([]);
    for (const o of others) expect(etagOf(o)).toBe(etagOf(first));
    // Slugs are not turned into ids for the key (that needs the term cache): `rest_url` echoes what was asked.
    expect((first.body as { rest_url: string }).rest_url).toContain(`categories=${a!.slug}%2C${b!.id}`);
  });

  it("keeps WordPress's global parameters and unknown `lang` out of the key, and still applies the global ones", async () => {
    const plain = await call(t, 'GET', '/events?per_page=3');
    expect(plain.status).toBe(200);
    const total = (plain.body as { total: number }).total;
    let fields: Awaited<ReturnType<typeof call>> | undefined;
    let envelope: Awaited<ReturnType<typeof call>> | undefined;
    let lang: Awaited<ReturnType<typeof call>> | undefined;
    const calls = await requestsDuring(t.gateway, async () => {
      fields = await call(t, 'GET', '/events?per_page=3&_fields=total');
      envelope = await call(t, 'GET', '/events?_envelope=1&per_page=3');
      lang = await call(t, 'GET', '/events?per_page=3&lang=es&_method=DELETE');
    });
    expect(calls).toEqual([]);
    expect(fields?.body).toEqual({ total });
    expect(envelope?.body).toMatchObject({ status: 200 });
    expect(lang?.status).toBe(200);
    expect(lang && etagOf(lang)).toBe(etagOf(plain));
  });

  it('writes canonical arguments in rest_url and next_rest_url, whatever form the request took', async () => {
    const r = await call(t, 'GET', '/events?utm_source=news&per_page=02&featured=FALSE');
    expect(r.status).toBe(200);
    const body = r.body as { rest_url: string; next_rest_url?: string };
    expect(body.rest_url).toMatch(new RegExp(`^${t.api}/events/\\?per_page=2&.*featured=0`));
    expect(body.rest_url).not.toContain('utm_source');
    expect(body.next_rest_url).toBe(`${body.rest_url}&page=2`);
  });

  it('does not split the cache by Origin, and answers each Origin with its own CORS header', async () => {
    const url = '/events?per_page=9&featured=0';
    const first = await call(t, 'GET', url, { headers: { Origin: 'https://one.example' } });
    expect(first.headers.get('access-control-allow-origin')).toBe('https://one.example');
    const answers: Array<Awaited<ReturnType<typeof call>>> = [];
    const calls = await requestsDuring(t.gateway, async () => {
      for (const origin of ['https://two.example', 'https://three.example', undefined]) {
        answers.push(
          await call(t, 'GET', `${url}&o=${origin ?? 'none'}`, { headers: origin ? { Origin: origin } : {} }),
        );
      }
    });
    expect(calls).toEqual([]);
    expect(answers.map((a) => a.headers.get('access-control-allow-origin'))).toEqual([
      'https://two.example',
      'https://three.example',
      null,
    ]);
    for (const a of answers) expect(etagOf(a)).toBe(etagOf(first));
  });

  it('answers a bad argument with its 400 however much junk comes with it, and stores nothing', async () => {
    const calls = await requestsDuring(t.gateway, async () => {
      const r = await call(t, 'GET', '/events?per_page=abc&utm_source=x');
      expect(r.status).toBe(400);
      expect((r.body as { data: { params: Record<string, string> } }).data.params).toHaveProperty('per_page');
    });
    expect(calls).toEqual([]);
  });

  it('gives equal arguments one CDN tag set (xkey), and a venue list the tags of what it filters by', async () => {
    // A gateway with a CDN in front (its purges go nowhere): answers carry their tags in `xkey`.
    const g = await peer(t, { cdn: { purge: 'varnish', url: 'http://127.0.0.1:9' } });
    try {
      const a = await get(g.url, '/venues?only_with_upcoming=0&utm_source=a');
      let b: Awaited<ReturnType<typeof get>> | undefined;
      const calls = await requestsDuring(g, async () => {
        b = await get(g.url, '/venues?fbclid=b');
      });
      expect(calls).toEqual([]);
      expect(a.status, a.text).toBe(200);
      expect(a.headers.get('xkey')).toContain('list:venue');
      // `only_with_upcoming=0` filters nothing, so the list does not follow the events' links.
      expect(a.headers.get('xkey')).not.toContain('links:venue');
      expect(b?.headers.get('xkey')).toBe(a.headers.get('xkey'));
      // Right after another file's writes the list may be served unshared for the soft window (no CDN tags yet).
      await expect
        .poll(
          async () => {
            const c = await get(g.url, '/venues?has_events=0&gclid=c');
            expect(c.status, c.text).toBe(200);
            return c.headers.get('xkey') ?? '';
          },
          { timeout: guard(10_000), interval: 250 },
        )
        .toContain('links:venue');
    } finally {
      await g.close();
    }
  });
});
