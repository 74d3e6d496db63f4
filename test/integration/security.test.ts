// The security findings of the attacker's probe, each as the request that showed it: poisoning through a GET body
// or a cut query, protected text reached by search, JSON-LD or filters, counts over others' hidden records, and the
// smaller leaks (headers, causes, encodings, Origin null, probing for drafts).
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, openTarget, type Role, type Target } from '../harness.ts';
import { NS, peer } from './cache-support.ts';
import { type EventRecord, expectError, Fixtures, type Json, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2032, 2);
const WINDOW = 'start_date=2032-02-01&end_date=2032-02-28';
let t: Target;
let fx: Fixtures;
const linked: Array<{ kind: 'venue' | 'organizer'; id: number }> = [];
let lockedVenue: Json;
let privateOnly: Json;
let draftOnly: Json;
let draftVenue: Json;
let draftEvent: EventRecord;
let privateEvent: EventRecord;
let ownDraft: EventRecord;

/** Writes a venue/organizer directly on WordPress as admin (what the WordPress admin would do). */
async function upstream(kind: 'venue' | 'organizer', body: Json): Promise<Json> {
  const res = await fetch(`${t.upstream}/wp/v2/${t.mapping[kind].restBase}`, {
    method: 'POST',
    headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  expect(res.status, JSON.stringify(json)).toBe(201);
  linked.push({ kind, id: Number(json.id) });
  return json;
}

/** A GET with a body, which fetch refuses to send. */
function getWithBody(path: string, body: string, type: string): Promise<{ status: number; body: Json }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${t.api}${path}`,
      { method: 'GET', headers: { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Json }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const ids = (res: CallResult, key: string): number[] =>
  ((res.body[key] as Array<{ id: number }> | undefined) ?? []).map((r) => r.id);
const total = (res: CallResult) => Number(res.headers.get('x-tec-total'));

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  lockedVenue = await upstream('venue', {
    title: `Locked venue ${tok}`,
    content: `Secret room ${tok}`,
    status: 'publish',
    password: 'letmein',
    meta: {
      _VenueAddress: `9 Hiddenroad ${tok}`,
      _VenueCity: `Lockcity${tok}`,
      _VenueState: 'Secretstate',
      _VenuePhone: '+1 555 0199',
      _VenueURL: 'https://secret.example',
      _VenueZip: '99999',
    },
  });
  privateOnly = await upstream('venue', { title: `Private only ${tok}`, status: 'publish' });
  draftOnly = await upstream('venue', { title: `Draft only ${tok}`, status: 'publish' });
  draftVenue = await upstream('venue', { title: `Draft venue ${tok}`, status: 'draft' });
  privateEvent = await fx.event({
    title: `Admin private ${tok}`,
    description: `Privateword${tok}`,
    start_date: day(2),
    end_date: day(2, '12:00:00'),
    status: 'private',
    venue: privateOnly.id,
  });
  draftEvent = await fx.event({
    title: `Admin draft ${tok}`,
    start_date: day(3),
    end_date: day(3, '12:00:00'),
    status: 'draft',
    venue: draftOnly.id,
  });
  ownDraft = await fx.event(
    { title: `Contributor draft ${tok}`, start_date: day(4), end_date: day(4, '12:00:00') },
    'contributor',
  );
  await fx.event({
    title: `Public ${tok}`,
    start_date: day(5),
    end_date: day(5, '12:00:00'),
    venue: lockedVenue.id,
  });
});

afterAll(async () => {
  await fx?.cleanup();
  await Promise.all(
    linked.map(({ kind, id }) =>
      fetch(`${t.upstream}/wp/v2/${t.mapping[kind].restBase}/${id}?force=true`, {
        method: 'DELETE',
        headers: { Authorization: t.auth.admin },
      }).catch(() => undefined),
    ),
  );
  await t?.close();
});

describe('one parser per request', () => {
  it.each([
    ['a JSON body', JSON.stringify({ search: 'zzzz-no-match', per_page: 1 }), 'application/json'],
    ['a form body', 'search=zzzz-no-match&per_page=1', 'application/x-www-form-urlencoded'],
  ])(
    'ignores %s on a GET, so it can neither change the answer nor poison the cached one',
    async (_l, body, type) => {
      const path = `/events?${WINDOW}&search=${tok}&_=${type.length}`;
      const poisoned = await getWithBody(path, body, type);
      expect(poisoned.status).toBe(200);
      const bare = await call(t, 'GET', path);
      expect(ids(bare, 'events').length).toBeGreaterThan(0);
      expect(poisoned.body).toEqual(bare.body);
    },
  );

  it('refuses a query of more than 1000 parameters instead of reading part of it', async () => {
    const padding = '&'.repeat(1000);
    const res = await call(t, 'GET', `/venues/${lockedVenue.id}?${padding}password=letmein`);
    expectError(res, 400, 'rest_too_many_params');
    // What the cut-off parser would have stored for everyone: the venue unlocked.
    const anonymous = await call(t, 'GET', `/venues/${lockedVenue.id}`);
    expect(anonymous.status).toBe(200);
    expect(JSON.stringify(anonymous.body)).not.toContain('Hiddenroad');
    const many = Array.from({ length: 999 }, (_, i) => `x${i}=1`).join('&');
    expect((await call(t, 'GET', `/venues/${lockedVenue.id}?${many}`)).status).toBe(200);
  });

  it.each([
    ['GET', '/events/by-slug/%zz'],
    ['GET', '/events/by-slug/%FF'],
    ['GET', '/organizers/by-slug/%E0%A4%A'],
    ['PATCH', '/events/by-slug/%zz'],
    ['GET', '/venues/by-slug/%'],
  ])('answers %s %s with a 400 naming the parameter, never a 500', async (method, path) => {
    const res = await call(t, method, path, method === 'GET' ? {} : { as: 'admin', body: {} });
    expectError(res, 400, 'rest_invalid_param');
    expect(Object.keys((res.body.data as Json).params as Json)).toEqual(['slug']);
    const es = await fetch(`${t.gateway.url}/es/wp-json/calendar/events/v1${path}`);
    expect(es.status).toBeLessThan(500);
  });
});

describe('protected text', () => {
  it('keeps a protected venue out of searches on its hidden fields for anonymous callers', async () => {
    for (const q of [`Hiddenroad ${tok}`, `Lockcity${tok}`, `Secret room ${tok}`]) {
      const anon = await call(t, 'GET', `/venues?search=${encodeURIComponent(q)}`);
      expect(ids(anon, 'venues'), q).toEqual([]);
      expect(total(anon)).toBe(0);
    }
    const byName = await call(t, 'GET', `/venues?search=${encodeURIComponent(`Locked venue ${tok}`)}`);
    expect(ids(byName, 'venues')).toEqual([lockedVenue.id]);
    // Every list shows these fields blanked, to editors too: no one's search matches them (issue 19, finding 5).
    const admin = await call(t, 'GET', `/venues?search=${encodeURIComponent(`Lockcity${tok}`)}`, {
      as: 'admin',
    });
    expect(ids(admin, 'venues')).toEqual([]);
  });

  it('blanks state, telephone, sameAs and region in a protected venue and its JSON-LD, also inside events', async () => {
    const own = await call(t, 'GET', `/venues/${lockedVenue.id}`);
    const events = await call(t, 'GET', `/events?${WINDOW}&venue=${lockedVenue.id}`);
    const single = await call(t, 'GET', `/events/${ids(events, 'events')[0]}`);
    for (const res of [own, events, single]) {
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      for (const secret of ['Secretstate', '555 0199', 'secret.example', '99999', 'Hiddenroad'])
        expect(text, secret).not.toContain(secret);
    }
    const unlocked = await call(t, 'GET', `/venues/${lockedVenue.id}?password=letmein`);
    expect((unlocked.body.json_ld as Json).telephone).toBe('+1 555 0199');
  });
});

describe('counts over what the caller may read', () => {
  const list = (q: string, as?: Role) => call(t, 'GET', `/events?${WINDOW}&search=${tok}&${q}`, { as });

  it("gives a contributor totals over their own hidden events only, never another user's", async () => {
    const res = await list('status=draft,pending,private,future', 'contributor');
    expect(ids(res, 'events')).toEqual([ownDraft.id]);
    expect(total(res)).toBe(1);
    const priv = await list(`status=private`, 'contributor');
    expect(total(priv)).toBe(0);
    const admin = await list('status=draft,pending,private,future', 'admin');
    expect(ids(admin, 'events').sort()).toEqual([privateEvent.id, draftEvent.id, ownDraft.id].sort());
  });

  it("does not count another user's draft venue for a contributor", async () => {
    const res = await call(
      t,
      'GET',
      `/venues?status=draft&search=${encodeURIComponent(`Draft venue ${tok}`)}`,
      {
        as: 'contributor',
      },
    );
    expect(total(res)).toBe(0);
    const admin = await call(
      t,
      'GET',
      `/venues?status=draft&search=${encodeURIComponent(`Draft venue ${tok}`)}`,
      {
        as: 'admin',
      },
    );
    expect(ids(admin, 'venues')).toEqual([draftVenue.id]);
  });

  it.each<[string, Role | undefined]>([
    ['an anonymous caller', undefined],
    ['an administrator', 'admin'],
  ])('has_events counts only events %s may read, and true/false partition the venues', async (_who, as) => {
    const q = (v: boolean) =>
      call(t, 'GET', `/venues?has_events=${v}&search=${encodeURIComponent(` only ${tok}`)}`, { as });
    const yes = ids(await q(true), 'venues');
    const no = ids(await q(false), 'venues');
    expect([...yes, ...no].sort()).toEqual([Number(privateOnly.id), Number(draftOnly.id)].sort());
    // A draft event never counts; a private one counts for whoever may read it.
    expect(no).toContain(Number(draftOnly.id));
    expect(yes.includes(Number(privateOnly.id))).toBe(as === 'admin');
  });

  it('counts upcoming private events for only_with_upcoming only for callers who may read them', async () => {
    const q = (as?: Role) =>
      call(t, 'GET', `/venues?only_with_upcoming=true&search=${encodeURIComponent(` only ${tok}`)}`, { as });
    expect(ids(await q(), 'venues')).toEqual([]);
    expect(ids(await q('admin'), 'venues').sort()).toEqual(
      [Number(privateOnly.id), Number(draftOnly.id)].sort(),
    );
  });

  it('answers a venue filter naming a draft venue as if the venue did not exist, to callers who may not read it', async () => {
    const missing = await call(t, 'GET', '/events?venue=999999999');
    const draft = await call(t, 'GET', `/events?venue=${draftVenue.id}`);
    expect(draft.status).toBe(400);
    expect(JSON.stringify(draft.body).replaceAll(String(draftVenue.id), 'N')).toBe(
      JSON.stringify(missing.body).replaceAll('999999999', 'N'),
    );
    expect((await call(t, 'GET', `/events?venue=${draftVenue.id}`, { as: 'admin' })).status).toBe(200);
  });

  it('answers post_parent of a draft as if it did not exist, to callers who may not read the draft', async () => {
    const missing = await call(t, 'GET', '/events?post_parent=999999999');
    const draft = await call(t, 'GET', `/events?post_parent=${draftEvent.id}`);
    expect(draft.status).toBe(missing.status);
    expect(draft.body).toEqual(missing.body);
    expect((await call(t, 'GET', `/events?post_parent=${draftEvent.id}`, { as: 'admin' })).status).toBe(200);
  });
});

describe('headers and errors', () => {
  it('sends nosniff and noindex on fresh, cached and error answers, as WordPress does', async () => {
    const path = `/events?${WINDOW}&search=${tok}&h=1`;
    for (const res of [
      await call(t, 'GET', path),
      await call(t, 'GET', path),
      await call(t, 'GET', '/events/0'),
      await call(t, 'GET', '/nothing-here'),
      await call(t, 'GET', '/events', { as: 'admin' }),
    ]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
    }
  });

  it('allows Origin: null to read without credentials, and never with them', async () => {
    const path = `/events?${WINDOW}&search=${tok}&o=1`;
    for (const res of [
      await call(t, 'GET', path, { headers: { Origin: 'null' } }),
      await call(t, 'GET', path, { headers: { Origin: 'null' } }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('null');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const app = await call(t, 'GET', path, { headers: { Origin: 'https://app.example' } });
    expect(app.headers.get('access-control-allow-credentials')).toBe('true');
  });
});

/** A GET of a path exactly as written (fetch would normalise `..` and `%2e%2e` away before sending). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.once('error', reject);
    req.end();
  });
}

describe('forwarded headers', () => {
  const listPath = `/events?${WINDOW}&search=${tok}&fwd=1`;

  it("writes links with the connection's scheme whatever X-Forwarded-Proto a caller that is no configured proxy sends", async () => {
    for (const proto of ['https', 'javascript', 'https://evil.example/#']) {
      const res = await call(t, 'GET', `${listPath}&p=${encodeURIComponent(proto)}`, {
        headers: { 'X-Forwarded-Proto': proto },
      });
      expect(res.status).toBe(200);
      expect(String(res.body.rest_url), proto).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/wp-json\//);
    }
    const page = await fetch(`${t.gateway.url}/`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(page.headers.get('x-tec-api-root')).toBe(`${t.gateway.url}/wp-json/calendar/events/v1/`);
  });

  it('takes only http or https from a configured proxy, and the connection’s scheme for anything else', async () => {
    const g = await peer(t, { trustProxy: 'loopback' });
    try {
      const api = { ...t, api: `${g.url}${NS}` };
      const cases: Array<[string, string]> = [
        ['https', 'https:'],
        ['HTTPS', 'https:'],
        ['http', 'http:'],
        ['javascript', 'http:'],
        ['https://evil.example/#', 'http:'],
        ['data', 'http:'],
      ];
      for (const [proto, scheme] of cases) {
        const res = await call(api, 'GET', `${listPath}&q=${encodeURIComponent(proto)}`, {
          headers: { 'X-Forwarded-Proto': proto },
        });
        const url = new URL(String(res.body.rest_url));
        expect(url.protocol, proto).toBe(scheme);
        expect(url.host, proto).toBe(new URL(g.url).host);
      }
      const root = await fetch(`${g.url}/wp-json`, { headers: { 'X-Forwarded-Proto': 'javascript' } });
      expect(JSON.stringify(await root.json())).not.toContain('javascript:');
    } finally {
      await g.close();
    }
  });
});

describe('paths under /wp-json', () => {
  it.each([
    '/wp-json/%2e%2e/wp-login.php',
    '/wp-json/%2E%2e/wp-login.php',
    '/wp-json/.%2e/wp-login.php',
    '/wp-json/../wp-login.php',
    '/wp-json/wp/v2/%2e%2e/%2e%2e/wp-login.php',
    '/wp-json/./calendar/events/v1/events',
    '/wp-json/wp%2fv2/users',
    '/wp-json/wp%5Cv2/users',
    '/es/wp-json/%2e%2e/%2e%2e/wp-login.php',
    '/WP-JSON/%2e%2e/wp-login.php',
    '/wp-json%2f%2e%2e%2fwp-login.php',
  ])('refuses %s with rest_no_route, and no CORS', async (path) => {
    const res = await rawGet(t.gateway.url, path, { Origin: 'https://app.example' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'rest_no_route', data: { status: 404 } });
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('still serves ordinary REST paths, proxied and our own', async () => {
    const own = await rawGet(t.gateway.url, `/wp-json/calendar/events/v1/events?${WINDOW}`);
    expect(own.status).toBe(200);
    const wp = await rawGet(t.gateway.url, `/wp-json/wp/v2/${t.mapping.event.restBase}?per_page=1`);
    expect(wp.status).toBe(200);
  });
});

describe('operator routes', () => {
  it('say whether the gateway is ready, never how many events (drafts, private and trashed ones too) it holds', async () => {
    const ready = await fetch(`${t.gateway.url}/calendar-gateway/v1/ready`);
    const body = (await ready.json()) as Json & { index: Json };
    expect(ready.status).toBe(200);
    expect(body.index).not.toHaveProperty('events');
    expect(JSON.stringify(body)).not.toMatch(/"(events|size|count|total)"/);
    const health = (await (await fetch(`${t.gateway.url}/calendar-gateway/v1/health`)).json()) as Json;
    expect(Object.keys(health).sort()).toEqual(['status', 'uptime_seconds']);
    // Operators still read the counts.
    const status = await fetch(`${t.gateway.url}/calendar-gateway/v1/status`, {
      headers: { Authorization: t.auth.admin },
    });
    const indexes = ((await status.json()) as { indexes: Array<{ events: number }> }).indexes;
    expect(indexes[0]?.events).toBeGreaterThan(0);
  });

  it('send nosniff on every answer, allowed or refused', async () => {
    const ops = `${t.gateway.url}/calendar-gateway/v1`;
    const answers = [
      await fetch(`${ops}/health`),
      await fetch(`${ops}/ready`),
      await fetch(`${ops}/status`),
      await fetch(`${ops}/status`, { headers: { Authorization: t.auth.admin } }),
      await fetch(`${ops}/metrics`),
      await fetch(`${ops}/notify`, { method: 'POST', body: '{}' }),
      await fetch(`${ops}/purge`, { method: 'POST' }),
    ];
    for (const res of answers) {
      expect(res.headers.get('x-content-type-options'), res.url).toBe('nosniff');
    }
  });
});

describe('cookies without a nonce', () => {
  it('are answered as anonymous, from the shared cache, as SECURITY.md says', async () => {
    const path = `/events?${WINDOW}&search=${tok}&cookie=1`;
    // One representation (a stored answer's gzip, with its own validator, is made off the request path).
    const identity = { 'Accept-Encoding': 'identity' };
    const anonymous = await call(t, 'GET', path, { headers: identity });
    const cookie = await call(t, 'GET', path, {
      headers: { ...identity, Cookie: 'wordpress_logged_in_0123=admin%7C1%7Cabc' },
    });
    expect(cookie.status).toBe(200);
    expect(cookie.headers.get('cache-control')).toMatch(/^public/);
    expect(cookie.headers.get('etag')).toBe(anonymous.headers.get('etag'));
    // With a nonce, the same cookie is a signed-in caller: never shared.
    const signedIn = await call(t, 'GET', path, {
      headers: { Cookie: 'wordpress_logged_in_0123=admin%7C1%7Cabc', 'X-WP-Nonce': 'abc' },
    });
    expect(signedIn.headers.get('cache-control') ?? '').not.toMatch(/public/);
    const doc = readFileSync(new URL('../../SECURITY.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).not.toContain(
      'A request carrying credentials, a cookie, a nonce or a post `password` is never stored',
    );
    expect(doc).toContain('a cookie without a nonce, a nonce without a cookie');
  });
});

describe('what crafted input costs', () => {
  /** `+1 day` repeated: a date strtotime reads, whose reading cost grows with its length (1.3 s for 1 MB). */
  const days = (n: number) => '+1 day '.repeat(n);

  it.each([
    ['POST', '/events'],
    ['PUT', `/events/by-slug/none-${tok}`],
    ['PATCH', '/venues/999999999'],
  ])(
    'refuses an anonymous %s %s with 1 MB of dates 401, as anonymous, before reading them',
    async (method, path) => {
      const res = await call(t, method, path, { body: { start_date: days(70_000), end_date: days(70_000) } });
      expectError(res, 401, 'rest_forbidden');
    },
  );

  it('refuses an anonymous write with bad arguments 401, for who it is, not 400 for its arguments', async () => {
    expectError(await call(t, 'POST', '/events', { body: { start_date: 'never' } }), 401, 'rest_forbidden');
  });

  it("refuses a signed-in caller's 1 MB date 400 naming it, before reading it", async () => {
    const res = await call(t, 'POST', '/events', {
      as: 'admin',
      body: { title: `Long ${tok}`, start_date: days(70_000), end_date: '2032-02-02 10:00:00' },
    });
    expectError(res, 400, 'rest_invalid_param');
    expect((res.body.data as Json).params).toEqual({
      start_date: 'start_date must be at most 256 characters long.',
    });
  });

  it.each([
    ['a 7 KB date', `start_date=${encodeURIComponent(days(1_000))}`, 'start_date', 256],
    ['a 600-character search', `search=${'a'.repeat(600)}`, 'search', 500],
  ])('answers an anonymous list with %s 400 naming it', async (_what, query, name, max) => {
    const res = await call(t, 'GET', `/events?${query}`);
    expectError(res, 400, 'rest_invalid_param');
    expect((res.body.data as Json).params).toEqual({
      [name]: `${name} must be at most ${max} characters long.`,
    });
  });
});
