// Near me (issue 35): venue coordinates written and validated, and the geolocation filters of /events, /events.ics
// and /venues: a point and a radius across the antimeridian and at a pole, geoloc=true/false, orderby=distance and
// distance_km, with other filters, paging and totals, and visibility (a protected event's venue never places it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, eventually, openTarget, type Target } from '../harness.ts';
import {
  type EventRecord,
  editUpstream,
  expectError,
  Fixtures,
  idsOf,
  type Json,
  monthOf,
  token,
} from './fixtures.ts';

const day = monthOf(2037, 5);
const WINDOW = `start_date=${encodeURIComponent(day(1, '00:00:00'))}&end_date=${encodeURIComponent(day(31, '23:59:59'))}`;
/** Taveuni, Fiji, on the antimeridian: venues on both sides of it, a few km apart. */
const FIJI = { lat: -16.8, lng: 179.99 };

let t: Target;
let fx: Fixtures;
const tok = token();
const venues: Record<string, number> = {};
const ev: Record<string, EventRecord> = {};

async function venue(name: string, body: Json): Promise<number> {
  const res = await call<Json & { id: number }>(t, 'POST', '/venues', {
    as: 'admin',
    body: { venue: `${name} ${tok}`, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const list = (q: string, as?: 'admin'): Promise<CallResult> =>
  call(t, 'GET', `/events?${WINDOW}&per_page=50&${q}`, { as });
const venueList = (q: string, as?: 'admin'): Promise<CallResult> =>
  call(t, 'GET', `/venues?search=${tok}&per_page=50&${q}`, { as });
const venueIds = (res: CallResult) => ((res.body.venues as Json[]) ?? []).map((v) => v.id as number);

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  venues.east = await venue('East', { city: 'Taveuni', geo_lat: -16.8, geo_lng: 179.95 });
  venues.west = await venue('West', { city: 'Taveuni', geo_lat: '-16.8', geo_lng: '-179.95' });
  venues.north = await venue('North', { geo_lat: 89.95, geo_lng: 10 });
  venues.south = await venue('Beyond', { geo_lat: 89.95, geo_lng: -170 });
  venues.none = await venue('Nowhere', { city: 'Unknown' });
  venues.locked = await venue('Locked', { geo_lat: -16.8, geo_lng: 179.96 });
  // A protected venue: its coordinates are blanked with its address, so they place nothing for who cannot see it.
  const res = await fetch(`${t.upstream}/wp/v2/${t.mapping.venue.restBase}/${venues.locked}`, {
    method: 'POST',
    headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ password: 'sesame' }),
  });
  expect(res.status).toBe(200);
  t.gateway.deps.catalog.invalidate('venue', [venues.locked]);
  const at = (name: string, d: number, venueId: number | undefined, extra: Json = {}) =>
    fx.event({
      title: `${name} ${tok}`,
      start_date: day(d, '19:00:00'),
      end_date: day(d, '21:00:00'),
      ...(venueId ? { venue: venueId } : {}),
      ...extra,
    });
  ev.east = await at('East gig', 1, venues.east);
  ev.west = await at('West gig', 2, venues.west);
  ev.north = await at('North gig', 3, venues.north);
  ev.south = await at('Beyond gig', 4, venues.south);
  ev.none = await at('Nowhere gig', 5, venues.none);
  ev.online = await at('Online gig', 6, undefined);
  ev.hidden = await at('Protected gig', 7, venues.east);
  ev.locked = await at('Locked gig', 8, venues.locked);
  ev.featured = await at('Featured gig', 9, venues.east, { featured: true });
  await editUpstream(t, ev.hidden.id, { password: 'hunter2' });
});

afterAll(async () => {
  await fx?.cleanup();
  await Promise.all(
    Object.values(venues).map((id) =>
      call(t, 'DELETE', `/venues/${id}`, { as: 'admin' }).catch(() => undefined),
    ),
  );
});

describe('venue coordinates', () => {
  it('answers geo_lat and geo_lng as numbers after stateprovince, as Pro does', async () => {
    const res = await call(t, 'GET', `/venues/${venues.west}`);
    expect(res.body.geo_lat).toBe(-16.8);
    expect(res.body.geo_lng).toBe(-179.95);
    const keys = Object.keys(res.body);
    expect(keys.indexOf('geo_lat')).toBeGreaterThan(keys.indexOf('city'));
    expect(keys.indexOf('geo_lng')).toBe(keys.indexOf('geo_lat') + 1);
    expect(keys.indexOf('geo_lng')).toBeLessThan(keys.indexOf('show_map'));
    expect(res.body).not.toHaveProperty('distance_km');
    // Without coordinates: no keys (Pro sends them only when set).
    const none = await call(t, 'GET', `/venues/${venues.none}`);
    expect(none.body).not.toHaveProperty('geo_lat');
  });

  it('stores them in the mapping meta keys', async () => {
    const res = await fetch(
      `${t.upstream}/wp/v2/${t.mapping.venue.restBase}/${venues.east}?context=edit&_fields=meta`,
      { headers: { Authorization: t.auth.admin } },
    );
    const meta = ((await res.json()) as { meta: Record<string, unknown> }).meta;
    const f = t.mapping.venue.fields as Record<string, { meta?: string } | undefined>;
    expect(Number(meta[f.geo_lat?.meta as string])).toBe(-16.8);
    expect(Number(meta[f.geo_lng?.meta as string])).toBe(179.95);
  });

  it.each([
    [{ geo_lat: 91, geo_lng: 0 }, 'geo_lat'],
    [{ geo_lat: -90.5, geo_lng: 0 }, 'geo_lat'],
    [{ geo_lat: 10, geo_lng: 180.01 }, 'geo_lng'],
    [{ geo_lat: 'north', geo_lng: 3 }, 'geo_lat'],
    [{ geo_lat: 10 }, 'geo_lng'],
    [{ geo_lng: 10 }, 'geo_lat'],
    [{ geo_lat: 10, geo_lng: null }, 'geo_lng'],
    [{ geo_lat: 10, geo_lng: '' }, 'geo_lng'],
  ])('refuses %j with a 400 naming %s', async (body, name) => {
    const res = await call(t, 'POST', '/venues', { as: 'admin', body: { venue: `Bad ${tok}`, ...body } });
    expectError(res, 400, 'rest_invalid_param');
    expect(Object.keys((res.body.data as { params: Json }).params)).toEqual([name]);
    const upd = await call(t, 'POST', `/venues/${venues.none}`, { as: 'admin', body });
    expectError(upd, 400, 'rest_invalid_param');
    expect(Object.keys((upd.body.data as { params: Json }).params)).toEqual([name]);
  });

  it('sets both on update and clears both with empty strings', async () => {
    const id = await venue('Mover', {});
    const set = await call(t, 'POST', `/venues/${id}`, {
      as: 'admin',
      body: { geo_lat: 0.5, geo_lng: -0.25 },
    });
    expect([set.body.geo_lat, set.body.geo_lng]).toEqual([0.5, -0.25]);
    const cleared = await call(t, 'POST', `/venues/${id}`, {
      as: 'admin',
      body: { geo_lat: '', geo_lng: '' },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('geo_lat');
    await call(t, 'DELETE', `/venues/${id}`, { as: 'admin' });
  });
});

describe('GET /events near a point', () => {
  it('keeps the events of venues within the radius, across the antimeridian', async () => {
    const res = await list(`geoloc_lat=${FIJI.lat}&geoloc_lng=${FIJI.lng}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // In start order; the protected event (venue hidden) and the protected venue's event are left out.
    expect(idsOf(res)).toEqual([ev.east.id, ev.west.id, ev.featured.id]);
    expect(res.body.total).toBe(3);
    const [east, west] = res.body.events as Json[];
    expect(east.distance_km).toBeCloseTo(4.26, 1);
    expect(west.distance_km).toBeCloseTo(6.39, 1);
    // After TEC's keys: the last key of the record.
    expect(Object.keys(east).at(-1)).toBe('distance_km');
    expect(res.body.rest_url).toContain('geoloc_lat=-16.8');
    expect(res.body.rest_url).toContain('geoloc_radius=25');
  });

  it('orders by distance, then by start, and pages with totals', async () => {
    const q = `geoloc_lat=${FIJI.lat}&geoloc_lng=${FIJI.lng}&orderby=distance`;
    expect(idsOf(await list(q))).toEqual([ev.east.id, ev.featured.id, ev.west.id]);
    const second = await call(t, 'GET', `/events?${WINDOW}&${q}&per_page=1&page=2`);
    expect(idsOf(second)).toEqual([ev.featured.id]);
    expect([second.body.total, second.body.total_pages]).toEqual([3, 3]);
    expect(second.body.next_rest_url).toContain('orderby=distance');
    expect(second.headers.get('x-tec-total')).toBe('3');
  });

  it('narrows with the radius, and composes with other filters', async () => {
    expect(idsOf(await list(`geoloc_lat=${FIJI.lat}&geoloc_lng=${FIJI.lng}&geoloc_radius=5`))).toEqual([
      ev.east.id,
      ev.featured.id,
    ]);
    expect(idsOf(await list(`geoloc_lat=${FIJI.lat}&geoloc_lng=${FIJI.lng}&featured=true`))).toEqual([
      ev.featured.id,
    ]);
    expect(idsOf(await list(`geoloc_lat=${FIJI.lat}&geoloc_lng=${FIJI.lng}&venue=${venues.west}`))).toEqual([
      ev.west.id,
    ]);
    expect(idsOf(await list(`geoloc_lat=${FIJI.lat}&geoloc_lng=${FIJI.lng}&search=West`))).toEqual([
      ev.west.id,
    ]);
    // Far from every venue of the file.
    expect(idsOf(await list('geoloc_lat=0&geoloc_lng=0&geoloc_radius=500'))).toEqual([]);
  });

  it('finds every longitude around the pole', async () => {
    const res = await list('geoloc_lat=90&geoloc_lng=0&orderby=distance');
    expect(idsOf(res).sort()).toEqual([ev.north.id, ev.south.id].sort());
    for (const e of res.body.events as Json[]) expect(e.distance_km).toBeCloseTo(5.56, 1);
  });

  it("keeps a protected event's venue out, except for who sees the event in full", async () => {
    const q = `geoloc_lat=${FIJI.lat}&geoloc_lng=${FIJI.lng}`;
    expect(idsOf(await list(q))).not.toContain(ev.hidden.id);
    expect(idsOf(await list(q, 'admin'))).toContain(ev.hidden.id);
    // The protected venue places no event, for anyone: its coordinates go with its address.
    expect(idsOf(await list(q, 'admin'))).not.toContain(ev.locked.id);
  });

  it('geoloc=true keeps events whose venue has coordinates; false the others', async () => {
    expect(idsOf(await list('geoloc=true'))).toEqual([
      ev.east.id,
      ev.west.id,
      ev.north.id,
      ev.south.id,
      ev.featured.id,
    ]);
    expect(idsOf(await list('geoloc=false'))).toEqual([ev.none.id, ev.online.id, ev.locked.id]);
    // The window's total is the sum (no protected event counted either way for the anonymous caller).
    const all = await list('');
    expect(all.body.total).toBe(9);
  });

  it.each([
    ['geoloc_lat=10', 'geoloc_lng'],
    ['geoloc_lng=10', 'geoloc_lat'],
    ['geoloc_lat=90.5&geoloc_lng=0', 'geoloc_lat'],
    ['geoloc_lat=0&geoloc_lng=-181', 'geoloc_lng'],
    ['geoloc_lat=0&geoloc_lng=abc', 'geoloc_lng'],
    ['geoloc_lat=0&geoloc_lng=0&geoloc_radius=501', 'geoloc_radius'],
    ['geoloc_lat=0&geoloc_lng=0&geoloc_radius=0', 'geoloc_radius'],
    ['orderby=distance', 'orderby'],
    ['orderby=title', 'orderby'],
    ['geoloc=false&geoloc_lat=0&geoloc_lng=0', 'geoloc'],
  ])('refuses %s with a 400 naming %s', async (q, name) => {
    const res = await call(t, 'GET', `/events?${q}`);
    expectError(res, 400, 'rest_invalid_param');
    expect(Object.keys((res.body.data as { params: Json }).params)).toEqual([name]);
  });

  it('filters the feed the same way, with GEO from the venue', async () => {
    const res = await fetch(`${t.api}/events.ics?${WINDOW}&geoloc_lat=${FIJI.lat}&geoloc_lng=${FIJI.lng}`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).toContain(`East gig ${tok}`);
    expect(text).toContain(`West gig ${tok}`);
    expect(text).not.toContain(`North gig ${tok}`);
    expect(text).toMatch(/GEO:-16\.8;-179\.95/);
  });
});

describe('GET /venues near a point', () => {
  it('keeps venues within the radius, nearest first with distance_km', async () => {
    const q = `geoloc_lat=${FIJI.lat}&geoloc_lng=${FIJI.lng}`;
    const res = await venueList(`${q}&orderby=distance`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(venueIds(res)).toEqual([venues.east, venues.west]);
    expect((res.body.venues as Json[])[0]?.distance_km).toBeCloseTo(4.26, 1);
    expect(Object.keys((res.body.venues as Json[])[0] ?? {}).at(-1)).toBe('distance_km');
    // The protected venue's coordinates count for who sees it in full.
    const admin = await venueList(`${q}&orderby=distance`, 'admin');
    expect(venueIds(admin)).toEqual([venues.locked, venues.east, venues.west]);
  });

  it('geoloc=true and false split the venues', async () => {
    const yes = await eventually(
      () => venueList('geoloc=true'),
      (r) => venueIds(r).length === 4,
    );
    expect(venueIds(yes).sort()).toEqual([venues.east, venues.west, venues.north, venues.south].sort());
    expect(venueIds(await venueList('geoloc=false')).sort()).toEqual([venues.none, venues.locked].sort());
  });

  it('refuses half a point', async () => {
    const res = await call(t, 'GET', '/venues?geoloc_lat=1');
    expectError(res, 400, 'rest_invalid_param');
    expect(Object.keys((res.body.data as { params: Json }).params)).toEqual(['geoloc_lng']);
  });
});
