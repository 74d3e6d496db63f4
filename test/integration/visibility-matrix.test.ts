// The visibility matrix: record status × owner × route × caller × cache state. For every cell the answer holds,
// counts and matches only what that caller may read, and nothing stored for one caller reaches another. The expected
// answer of each cell comes from WordPress's read rules (the oracle in visibility-model.ts), not from the gateway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, openTarget, type Target } from '../harness.ts';
import { guard } from '../slack.ts';
import { Fixtures, type Json, monthOf, token } from './fixtures.ts';
import { checkFeed, drainFeed } from './visibility-changes.ts';
import {
  authOf as authOfIn,
  CALLERS,
  type Caller,
  editsOthers,
  editsOwn,
  expectList,
  expectNothingOf,
  expectWrongPassword,
  fetchInState,
  getAs,
  hasEvents,
  listed,
  mayRead,
  mayReadVenue,
  OWNERS,
  type Owner,
  PASSWORD,
  type Rec,
  STATES,
  STATUSES,
  type State,
  searchable,
  seesFull,
  VENUE_STATUSES,
  type VenueRec,
} from './visibility-model.ts';

const tok = token();
const day = monthOf(2033, 4);
const WINDOW = 'start_date=2033-04-01&end_date=2033-04-30';

let t: Target;
let fx: Fixtures;
const recs: Rec[] = [];
const venues: VenueRec[] = [];
const userIds = {} as Record<Owner, number>;
const upstreamCreated: Array<{ base: string; id: number }> = [];
let cells = 0;
let requests = 0;
/** Where the changes feed stood before the matrix was made. */
let feedSince = '0';

// ---- the oracle: WordPress's read rules -------------------------------------------------------------------------

const authOf = (c: Caller) => authOfIn(t, c);
/** A GET as `c` (counted), with a body when asked. */
function get(c: Caller, path: string, body?: string): Promise<CallResult<Json>> {
  requests++;
  return getAs(t, c, path, body);
}

/** Fetches `route` as `c` in a cache state (visibility-model.ts). */
const fetchIn = (state: State, c: Caller, route: string) => fetchInState({ t, get, recs }, state, c, route);

// ---- checks -----------------------------------------------------------------------------------------------------

async function checkEvents(state: State, c: Caller): Promise<void> {
  const all = recs.map((r) => r.id);
  const secretsHidden = (shown: (r: Rec) => boolean) =>
    recs.filter((r) => !shown(r) || r.status === 'protected');
  const lists: Array<[string, (r: Rec) => boolean]> = [
    [`/events?${WINDOW}&per_page=50&search=mx${tok}`, (r) => searchable(c, r)],
    [`/events?${WINDOW}&per_page=50&search=descword${tok}`, (r) => searchable(c, r, false)],
    [`/events?per_page=50&include=${all.join(',')}`, (r) => listed(c, r)],
    ...blankedFilters().map(([q]): [string, (r: Rec) => boolean] => [
      `/events?${WINDOW}&per_page=50&${q}`,
      (r) => listed(c, r) && seesFull(c, r),
    ]),
  ];
  for (const [route, shown] of lists) {
    const res = await fetchIn(state, c, route);
    const label = `${state} ${c} ${route.slice(0, 60)}`;
    if (c === 'wrong-password') expectWrongPassword(res, label);
    else {
      expectList(
        res,
        'events',
        recs.filter(shown).map((r) => r.id),
        label,
      );
      expectNothingOf(res, secretsHidden(shown), label);
    }
    cells += recs.length;
  }
  // Pages: one record per page, so the page headers count exactly what is listed.
  const paged = await fetchIn(state, c, `/events?${WINDOW}&per_page=1&search=mx${tok}`);
  if (c !== 'wrong-password') {
    const n = recs.filter((r) => searchable(c, r)).length;
    expect(Number(paged.headers.get('x-tec-totalpages')), `${state} ${c} pages`).toBe(n);
    expectNothingOf(
      paged,
      secretsHidden((r) => searchable(c, r)),
      `${state} ${c} page`,
    );
  }
  cells += recs.length;
  // Explicit statuses: refused to who may not list them, counted over what the caller may read otherwise.
  const asked = await fetchIn(
    state,
    c,
    `/events?${WINDOW}&per_page=50&search=mx${tok}&status=draft,pending,private,future`,
  );
  if (c === 'wrong-password') expectWrongPassword(asked, 'status');
  else if (!editsOwn(c)) expect(asked.status, `${state} ${c} status`).toBe(400);
  else
    expectList(
      asked,
      'events',
      recs
        .filter((r) => ['draft', 'pending', 'private', 'future'].includes(r.status) && listed(c, r))
        .map((r) => r.id),
      `${state} ${c} status=`,
    );
  cells += recs.length;
}

async function checkSingles(state: State, c: Caller): Promise<void> {
  for (const r of recs) {
    for (const route of [`/events/${r.id}`, r.slug ? `/events/by-slug/${r.slug}` : undefined]) {
      if (!route) continue;
      const res = await fetchIn(state, c, route);
      const label = `${state} ${c} ${route} (${r.status}/${r.owner})`;
      if (c === 'wrong-password') expectWrongPassword(res, label);
      else if (!mayRead(c, r.status, r.owner) || r.status === 'protected') {
        // Protected: the event asks for its password (or shows it blanked); never its content.
        expectNothingOf(res, [r], label);
        if (r.status !== 'protected') expect(res.status, label).toBeGreaterThanOrEqual(400);
      } else {
        expect(res.status, label).toBe(200);
        expect(JSON.stringify(res.body), label).toContain(r.secret);
      }
      cells++;
    }
  }
}

async function checkLinked(state: State, c: Caller): Promise<void> {
  const search = `vx${tok}`;
  const lists: Array<[string, (r: Rec) => boolean]> = [
    [`/venues?per_page=50&search=${search}&has_events=true`, (r) => hasEvents(c, r)],
    [`/venues?per_page=50&search=${search}&has_events=false`, (r) => !hasEvents(c, r)],
    [`/venues?per_page=50&search=${search}&only_with_upcoming=true`, (r) => listed(c, r) && seesFull(c, r)],
    [`/organizers?per_page=50&search=ox${tok}&has_events=true`, (r) => hasEvents(c, r)],
    [`/organizers?per_page=50&search=ox${tok}&has_events=false`, (r) => !hasEvents(c, r)],
  ];
  for (const [route, shown] of lists) {
    const res = await fetchIn(state, c, route);
    const label = `${state} ${c} ${route}`;
    const key = route.startsWith('/venues') ? 'venues' : 'organizers';
    if (c === 'wrong-password') expectWrongPassword(res, label);
    else
      expectList(
        res,
        key,
        recs.filter(shown).map((r) => (key === 'venues' ? r.venue : r.organizer)),
        label,
      );
    cells += recs.length;
  }
  // Venues of every status, each linked from a public event: the venue itself, its list, and embedded.
  const vlist = await fetchIn(
    state,
    c,
    `/venues?per_page=50&search=sv${tok}${editsOwn(c) ? '&status=any' : ''}`,
  );
  if (c !== 'wrong-password') {
    expectList(
      vlist,
      'venues',
      venues.filter((v) => mayRead(c, v.status, 'author')).map((v) => v.id),
      `${state} ${c} venue statuses`,
    );
    expectNothingOf(
      vlist,
      venues.filter((v) => !mayReadVenue(c, v)) as unknown as Rec[],
      `${state} ${c} vlist`,
    );
  }
  cells += venues.length;
  // A search matches only what the caller may read: a protected venue's address is blanked for everyone.
  for (const v of venues) {
    const found = await fetchIn(
      state,
      c,
      `/venues?per_page=50&search=${v.secret}${editsOwn(c) ? '&status=any' : ''}`,
    );
    if (c !== 'wrong-password') {
      const shown = mayRead(c, v.status, 'author') && mayReadVenue(c, v);
      expectList(found, 'venues', shown ? [v.id] : [], `${state} ${c} venue search (${v.status})`);
    }
    cells++;
  }
  for (const v of venues) {
    for (const route of [`/venues/${v.id}`, `/events/${v.event}`]) {
      const res = await fetchIn(state, c, route);
      const label = `${state} ${c} ${route} (venue ${v.status})`;
      if (c === 'wrong-password') expectWrongPassword(res, label);
      else if (mayReadVenue(c, v)) expect(JSON.stringify(res.body), label).toContain(v.secret);
      else expect(JSON.stringify(res.body), label).not.toContain(v.secret);
      cells++;
    }
  }
}

/** The event filters on what a password blanks: venue, organizer, categories, tags, featured (issue 30, finding 2). */
const blankedFilters = (): Array<[string]> => [
  [`venue=${recs.map((r) => r.venue).join(',')}`],
  [`organizer=${recs.map((r) => r.organizer).join(',')}`],
  [`categories=${recs.map((r) => r.category).join(',')}`],
  [`tags=${recs.map((r) => r.tag).join(',')}`],
  [`featured=false&include=${recs.map((r) => r.id).join(',')}`],
];

/**
 * What a protected event's blanked fields may match for `c`, with its password (`password`) or a wrong one: event
 * lists and the feed filtered on them, the linked lists and term lists of one event, `has_events` and
 * `only_with_upcoming`. Each answers only what the caller sees of the event.
 */
async function checkBlanked(state: State, c: Caller, password?: string): Promise<void> {
  const opened = password === PASSWORD;
  const pw = password === undefined ? '' : `&password=${password}`;
  const label = (route: string) => `${state} ${c}${pw} ${route.slice(0, 70)}`;
  const answer = async (route: string) => {
    const res = await fetchIn(state, c, `${route}${pw}`);
    if (c === 'wrong-password') expectWrongPassword(res, label(route));
    return c === 'wrong-password' ? null : res;
  };
  for (const [q] of blankedFilters()) {
    const shown = recs.filter((r) => listed(c, r) && seesFull(c, r, opened));
    const list = await answer(`/events?${WINDOW}&per_page=50&${q}`);
    if (list)
      expectList(
        list,
        'events',
        shown.map((r) => r.id),
        label(q),
      );
    const feed = await answer(`/events.ics?${WINDOW}&${q}`);
    if (feed) expect(Number(feed.headers.get('x-tec-total')), label(`feed ${q}`)).toBe(shown.length);
    cells += 2 * recs.length;
  }
  for (const r of recs.filter((x) => x.status === 'protected')) {
    const sees = seesFull(c, r, opened);
    const linked: Array<[string, string, number]> = [
      [`/venues?event=${r.id}`, 'venues', r.venue],
      [`/organizers?event=${r.id}`, 'organizers', r.organizer],
    ];
    for (const [route, key, id] of linked) {
      const res = await answer(route);
      if (res) expectList(res, key, sees ? [id] : [], label(`${route} (${r.owner})`));
      cells++;
    }
    const terms: Array<[string, string, string]> = [
      [`/categories?post=${r.id}`, 'categories', r.category],
      [`/tags?event=${r.id}`, 'tags', r.tag],
    ];
    for (const [route, key, slug] of terms) {
      const res = await answer(route);
      if (!res) continue;
      const slugs = ((res.body?.[key] as Array<{ slug: string }> | undefined) ?? []).map((x) => x.slug);
      expect(slugs, label(`${route} (${r.owner})`)).toEqual(sees ? [slug] : []);
      expect(res.body.total, label(`${route} (${r.owner}) total`)).toBe(sees ? 1 : 0);
      cells++;
    }
  }
  // `has_events` and `only_with_upcoming` try no password (it would be a guess at every protected event of the site):
  // a protected event's links count for its editors only.
  const links: Array<[string, string, (r: Rec) => boolean]> = [
    [`/venues?per_page=50&search=vx${tok}&has_events=true`, 'venues', (r) => hasEvents(c, r)],
    [`/organizers?per_page=50&search=ox${tok}&has_events=false`, 'organizers', (r) => !hasEvents(c, r)],
    [
      `/venues?per_page=50&search=vx${tok}&only_with_upcoming=true`,
      'venues',
      (r) => listed(c, r) && seesFull(c, r),
    ],
  ];
  for (const [route, key, shown] of links) {
    const res = await answer(route);
    const of = (r: Rec) => (key === 'venues' ? r.venue : r.organizer);
    if (res) expectList(res, key, recs.filter(shown).map(of), label(route));
    cells += recs.length;
  }
}

async function checkTooManyParams(c: Caller): Promise<void> {
  for (const route of [`/events?${WINDOW}`, `/events/${recs[0].id}`, `/venues/${venues[0].id}`]) {
    const res = await get(
      c,
      `${route}${route.includes('?') ? '&' : '?'}${'&'.repeat(1000)}password=x&status=any`,
    );
    expect([400, 401], `${c} ${route} 1000+`).toContain(res.status);
    expectNothingOf(res, recs, `${c} ${route} 1000+`);
    cells += recs.length;
  }
  const options = await call<Json>(t, 'OPTIONS', `/events?include=${recs.map((r) => r.id).join(',')}`, {
    headers: authOf(c),
  });
  expect(options.status).toBeLessThan(500);
  expectNothingOf(options, recs, `${c} OPTIONS`);
  cells += recs.length;
}

// ---- fixtures ---------------------------------------------------------------------------------------------------

async function upstream(base: string, body: Json): Promise<Json> {
  const res = await fetch(`${t.upstream}/wp/v2/${base}`, {
    method: 'POST',
    headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  expect(res.status, JSON.stringify(json)).toBe(201);
  upstreamCreated.push({ base, id: Number(json.id) });
  return json;
}

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  feedSince = (await drainFeed(t, '0', {})).next;
  for (const o of OWNERS) {
    const me = await fetch(`${t.upstream}/wp/v2/users/me`, { headers: { Authorization: t.auth[o] } });
    userIds[o] = ((await me.json()) as { id: number }).id;
  }
  const venueBase = t.mapping.venue.restBase;
  let d = 1;
  for (const status of STATUSES) {
    for (const owner of OWNERS) {
      const name = `${status}${owner}${tok}`;
      const venue = await upstream(venueBase, { title: `Venue vx${tok} ${name}`, status: 'publish' });
      const organizer = await upstream(t.mapping.organizer.restBase, {
        title: `Organizer ox${tok} ${name}`,
        status: 'publish',
      });
      const created = await fx.event({
        title: `Event mx${tok} ${name}`,
        description: `descword${tok} secret${name}x`,
        start_date: day(d),
        end_date: day(d++, '12:00:00'),
        author: userIds[owner],
        status: status === 'protected' || status === 'trash' || status === 'future' ? 'publish' : status,
        ...(status === 'future' ? { date: '2031-01-01 10:00:00' } : {}),
        venue: Number(venue.id),
        organizer: [Number(organizer.id)],
        categories: [`mc${name}`],
        tags: [`mt${name}`],
      });
      const cats = created.categories as Array<{ slug: string }>;
      const tags = created.tags as Array<{ slug: string }>;
      if (status === 'protected') {
        await fetch(`${t.upstream}/wp/v2/${t.mapping.event.restBase}/${created.id}`, {
          method: 'POST',
          headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
          body: JSON.stringify({ password: PASSWORD }),
        });
      }
      if (status === 'trash') await call(t, 'DELETE', `/events/${created.id}`, { as: 'admin' });
      recs.push({
        id: created.id,
        slug: created.slug,
        status,
        owner,
        venue: Number(venue.id),
        organizer: Number(organizer.id),
        category: cats[0].slug,
        tag: tags[0].slug,
        secret: `secret${name}x`,
      });
    }
  }
  for (const status of VENUE_STATUSES) {
    const secret = `vsecret${status}${tok}`;
    const v = await upstream(venueBase, {
      title: `Status venue sv${tok} ${status}`,
      status: status === 'protected' ? 'publish' : status,
      author: userIds.author,
      ...(status === 'protected' ? { password: 'matrix-pw' } : {}),
      meta: { _VenueAddress: secret },
    });
    const ev = await fx.event({
      title: `At ${status} venue sv${tok}`,
      start_date: day(28),
      end_date: day(28, '12:00:00'),
      venue: Number(v.id),
    });
    venues.push({ id: Number(v.id), status, event: ev.id, secret });
  }
  const index = await t.gateway.deps.indexes.forLanguage(t.mapping.language.default);
  await index.refresh();
  // Venues and organizers written in the WordPress admin reach the gateway's catalog within its refresh (3 s).
  await new Promise((r) => setTimeout(r, 3_500));
  await t.gateway.deps.cache?.purgeAll();
}, guard(300_000));

afterAll(async () => {
  await fx?.cleanup();
  await Promise.all(
    upstreamCreated.map(({ base, id }) =>
      fetch(`${t.upstream}/wp/v2/${base}/${id}?force=true`, {
        method: 'DELETE',
        headers: { Authorization: t.auth.admin },
      }).catch(() => undefined),
    ),
  );
  await t?.close();
  console.log(`visibility matrix (${t?.kind}): ${cells} cells checked in ${requests} requests`);
});

describe('visibility matrix', () => {
  it('created every record with the status and owner of its cell', () => {
    expect(recs).toHaveLength(STATUSES.length * OWNERS.length);
    expect(venues).toHaveLength(VENUE_STATUSES.length);
  });

  for (const state of STATES) {
    it(`answers every caller only what it may read: ${state}`, { timeout: guard(300_000) }, async () => {
      await Promise.all(
        CALLERS.map(async (c) => {
          await checkEvents(state, c);
          await checkLinked(state, c);
          await checkBlanked(state, c);
          // A caller with the protected events' password sees them in full.
          if (c === 'anonymous') await checkBlanked(state, c, PASSWORD);
          if (state !== 'after-invalidation' && state !== 'get-body') await checkSingles(state, c);
        }),
      );
    });
  }

  it('tells each caller of the changes feed only of what it may see, now and since', async () => {
    // The venues were made in WordPress without a notification: the log hears of them by its reconciliation (every
    // RECONCILE_INTERVAL_MS; this gateway polls nothing).
    await t.gateway.deps.recorder!.reconcile();
    for (const c of CALLERS) {
      const full = editsOthers(c);
      cells += await checkFeed(t, {
        since: feedSince,
        headers: authOf(c),
        full,
        rejected: c === 'wrong-password',
        label: `changes ${c}`,
        cells: [
          ...recs.map((r) => ({
            kind: 'event' as const,
            id: r.id,
            visible: full ? r.status !== 'trash' : r.status === 'publish',
            everPublic: ['publish', 'protected', 'trash'].includes(r.status),
          })),
          ...venues.map((v) => ({
            kind: 'venue' as const,
            id: v.id,
            visible: full || v.status === 'publish',
            everPublic: v.status === 'publish',
          })),
        ],
      });
    }
  });

  it('opens nothing of a protected event to a wrong post password', async () => {
    // Each protected event a wrong password is tried at is a guess, throttled per client (5 per event): a few cells.
    const wrong = 'not-the-password';
    const shown = recs.filter((r) => listed('anonymous', r) && r.status !== 'protected').map((r) => r.id);
    const list = await get(
      'anonymous',
      `/events?${WINDOW}&per_page=50&${blankedFilters()[0][0]}&password=${wrong}`,
    );
    expectList(list, 'events', shown, 'wrong post password, venue=');
    const locked = recs.filter((r) => r.status === 'protected');
    const venues = await get('anonymous', `/venues?event=${locked[0].id}&password=${wrong}`);
    expectList(venues, 'venues', [], 'wrong post password, venues?event=');
    const cats = await get('anonymous', `/categories?post=${locked[1].id}&password=${wrong}`);
    expect(cats.body.total, 'wrong post password, categories?post=').toBe(0);
    cells += recs.length + 2;
  });

  it('refuses 1000+ parameters and describes routes without records, for every caller', async () => {
    for (const c of CALLERS) await checkTooManyParams(c);
  });

  it('checked thousands of cells', () => {
    expect(cells).toBeGreaterThan(5000);
  });
});
