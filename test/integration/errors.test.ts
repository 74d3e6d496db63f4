// Bad input anywhere gives TEC's 400 body (never a 500); bad JSON and unknown routes get WordPress's errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Target } from '../harness.ts';
import { type EventRecord, expectError, Fixtures, type Json, token } from './fixtures.ts';

const tok = token();
let t: Target;
let fx: Fixtures;
let ev: EventRecord;

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  ev = await fx.event({
    title: `Errors ${tok}`,
    start_date: '2031-11-02 10:00:00',
    end_date: '2031-11-02 11:00:00',
  });
});

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

/** TEC's invalid-parameter body: `{code, message, data: {status: 400, params: {name: message}}}`. */
function expectInvalid(res: { status: number; body: Json }, param: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe('rest_invalid_param');
  expect(typeof res.body.message).toBe('string');
  const data = res.body.data as Json;
  expect(data.status).toBe(400);
  expect(Object.keys(data.params as Json)).toContain(param);
  expect(typeof (data.params as Json)[param]).toBe('string');
}

describe('list parameters', () => {
  it.each([
    ['page', '0'],
    ['page', 'two'],
    ['per_page', '-5'],
    ['per_page', '1.5'],
    ['start_date', 'not a date'],
    ['end_date', 'yesterday-ish nonsense'],
    ['starts_before', 'garbage'],
    ['starts_after', 'garbage'],
    ['ends_before', 'garbage'],
    ['ends_after', 'garbage'],
    ['strict_dates', ''],
    ['search', ''],
    ['categories', `no-such-category-${tok}`],
    ['tags', `no-such-tag-${tok}`],
    ['venue', 'abc'],
    ['venue', '99999999'],
    ['organizer', '99999999'],
    ['featured', 'perhaps'],
    ['status', ''],
    ['status', 'draft'],
    ['include', 'x,y'],
    ['post_parent', '99999999'],
    ['post_parent', 'abc'],
    ['ticketed', 'true'],
    ['ticketed', 'sometimes'],
    ['geoloc', 'perhaps'],
    ['multilang_language', 'xx'],
  ])('answers 400 for %s=%s', async (name, value) => {
    expectInvalid(await call(t, 'GET', `/events?${name}=${encodeURIComponent(value)}`), name);
  });

  it('never answers 500 on odd query shapes', async () => {
    for (const q of [
      'page[]=1',
      'per_page[a]=1',
      'categories[x][y]=1',
      'start_date[]=2031-01-01',
      'search[]=a',
      'include[]=',
      '%zz=1',
    ]) {
      const res = await call(t, 'GET', `/events?${q}`);
      expect(res.status, q).toBeLessThan(500);
    }
  });
});

describe('single routes', () => {
  it('answers 404 rest_no_route for unknown routes and non-numeric ids', async () => {
    for (const path of ['/nope', '/events/abc', '/events/12/extra', '/events/by-slug']) {
      expectError(await call(t, 'GET', path), 404, 'rest_no_route');
    }
    expectError(await call(t, 'PUT', '/events', { as: 'admin', body: {} }), 404, 'rest_no_route');
  });

  it('answers 400 for an empty password', async () => {
    expectInvalid(await call(t, 'GET', `/events/${ev.id}?password=`), 'password');
  });
});

describe('write bodies', () => {
  const valid = { title: `Body ${tok}`, start_date: '2031-11-03 10:00:00', end_date: '2031-11-03 11:00:00' };

  it('answers 400 rest_invalid_json for a broken JSON body', async () => {
    const res = await fetch(`${t.api}/events`, {
      method: 'POST',
      headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
      body: '{"title": "x",',
    });
    const body = (await res.json()) as Json;
    expect(res.status).toBe(400);
    expect(body.code).toBe('rest_invalid_json');
    expect((body.data as Json).status).toBe(400);
  });

  it('answers 400 rest_missing_callback_param with the list of missing names', async () => {
    const res = await call(t, 'POST', '/events', { as: 'admin', body: { title: 'only a title' } });
    expectError(res, 400, 'rest_missing_callback_param');
    expect((res.body.data as Json).params).toEqual(expect.arrayContaining(['start_date', 'end_date']));
  });

  it.each([
    ['title', ''],
    ['title', 42],
    ['description', ''],
    ['excerpt', ''],
    ['slug', ''],
    ['start_date', 'never'],
    ['end_date', {}],
    ['date', 'soonish'],
    ['date_utc', 'soonish'],
    ['author', 'me'],
    ['status', 'published'],
    ['timezone', 'Nowhere/Land'],
    ['all_day', 'sometimes'],
    ['website', 'not a url'],
    ['show_map', 'maybe'],
    ['show_map_link', 'maybe'],
    ['hide_from_listings', 'maybe'],
    ['sticky', 'maybe'],
    ['featured', 'maybe'],
    ['multilang_language', 'xx'],
  ])('answers 400 for %s=%j on create and on update', async (name, value) => {
    expectInvalid(await call(t, 'POST', '/events', { as: 'admin', body: { ...valid, [name]: value } }), name);
    expectInvalid(await call(t, 'PATCH', `/events/${ev.id}`, { as: 'admin', body: { [name]: value } }), name);
  });

  it.each([
    ['venue', 99999999],
    ['venue', { id: 99999999 }],
    ['organizer', [99999999]],
    ['organizer', [{ id: 99999999 }]],
    ['venue', { city: 'no name' }],
    ['organizer', [{ email: 'no-name@example.org' }]],
  ])('answers a 400 for a bad linked %s %j, never a 500', async (name, value) => {
    const res = await call(t, 'POST', '/events', { as: 'admin', body: { ...valid, [name]: value } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(typeof res.body.code).toBe('string');
    expect((res.body.data as Json).status).toBe(400);
  });

  it('never answers 500 for odd body shapes', async () => {
    for (const body of [
      [],
      'string',
      42,
      null,
      { ...valid, categories: { a: 1 } },
      { ...valid, cost: { a: [1] } },
      { ...valid, image: 'abc' },
    ]) {
      const res = await call(t, 'POST', '/events', { as: 'admin', body });
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      if (res.status === 201) fx.ids.push((res.body as EventRecord).id);
    }
  });
});
