// /categories and /tags against the project's upstream: list parameters, envelope, single CRUD, errors, embedding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, eventually, openTarget, type Role, type Target } from '../harness.ts';
import { type EventRecord, expectError, Fixtures, type Json, monthOf, token } from './fixtures.ts';

type Term = Json & { id: number; name: string; slug: string; count: number; parent?: number; urls: Json };

const tok = token();
const day = monthOf(2032, 7);
let t: Target;
let fx: Fixtures;
let parent: Term; // has an event
let child: Term; // child of parent, has an event
let empty: Term; // no events
let tagA: Term; // on the event
let tagB: Term; // no events
let event: EventRecord;
const created: Array<{ kind: string; id: number }> = [];

const get = (path: string, as?: Role) => call(t, 'GET', path, { as });
const namesOf = (res: CallResult, kind = 'categories'): string[] =>
  ((res.body[kind] as Term[] | undefined) ?? []).map((x) => x.name);

/** A post id that is not an event: the venue of some sample event. */
async function seededVenueId(): Promise<number> {
  const res = await get('/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01');
  const venue = (res.body.events as Json[])
    .map((e) => e.venue as Json)
    .find((v) => v && typeof v.id === 'number');
  expect(venue, 'the sample site has events with venues').toBeDefined();
  return venue!.id as number;
}

async function make(kind: 'categories' | 'tags', body: Json, as: Role = 'admin'): Promise<Term> {
  const res = await call<Term>(t, 'POST', `/${kind}`, { as, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  created.push({ kind, id: res.body.id });
  return res.body;
}

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  parent = await make('categories', { name: `Parent ${tok}`, description: 'The parent.' });
  child = await make('categories', { name: `Child ${tok}`, parent: parent.id, slug: `child-${tok}` });
  empty = await make('categories', { name: `Empty ${tok}` });
  tagA = await make('tags', { name: `Tag A ${tok}` });
  tagB = await make('tags', { name: `Tag B ${tok}` });
  event = await fx.event({
    title: `Terms ${tok}`,
    start_date: day(4),
    end_date: day(4, '12:00:00'),
    categories: [parent.id, child.id],
    tags: [tagA.id],
  });
});

afterAll(async () => {
  await fx?.cleanup();
  for (const c of created)
    await call(t, 'DELETE', `/${c.kind}/${c.id}`, { as: 'admin' }).catch(() => undefined);
  await t?.close();
});

describe('term lists', () => {
  it('answers the envelope in TEC order with integer totals and the X-TEC headers', async () => {
    const res = await get(`/categories?search=${tok}&hide_empty=false`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories']);
    expect(res.body.total).toBe(3);
    expect(res.body.total_pages).toBe(1);
    expect(res.headers.get('x-tec-total')).toBe('3');
    expect(res.headers.get('x-tec-totalpages')).toBe('1');
    expect(String(res.body.rest_url)).toMatch(new RegExp(`^${t.api}/categories/\\?`));
  });

  it('orders by name ascending by default and hides terms without events unless hide_empty is false', async () => {
    expect(namesOf(await get(`/categories?search=${tok}`))).toEqual([`Child ${tok}`, `Parent ${tok}`]);
    expect(namesOf(await get(`/categories?search=${tok}&hide_empty=0`))).toEqual([
      `Child ${tok}`,
      `Empty ${tok}`,
      `Parent ${tok}`,
    ]);
    expect(namesOf(await get(`/tags?search=${tok}`), 'tags')).toEqual([`Tag A ${tok}`]);
    expect(namesOf(await get(`/tags?search=${tok}&hide_empty=false`), 'tags')).toEqual([
      `Tag A ${tok}`,
      `Tag B ${tok}`,
    ]);
  });

  it('pages with next and previous links that keep the filters, and drops page from the link to page 1', async () => {
    const res = await get(`/categories?search=${tok}&hide_empty=false&per_page=1&page=2`);
    expect(Object.keys(res.body)).toEqual([
      'rest_url',
      'total',
      'total_pages',
      'categories',
      'next_rest_url',
      'previous_rest_url',
    ]);
    expect(res.body.total_pages).toBe(3);
    expect(namesOf(res)).toEqual([`Empty ${tok}`]);
    expect(String(res.body.next_rest_url)).toContain('page=3');
    expect(String(res.body.next_rest_url)).toContain(`search=${tok}`);
    expect(String(res.body.previous_rest_url)).not.toMatch(/[?&]page=/);
    const next = await fetch(String(res.body.next_rest_url)).then((r) => r.json());
    expect(next.categories.map((x: Term) => x.name)).toEqual([`Parent ${tok}`]);
    expect(next).not.toHaveProperty('next_rest_url');
  });

  it('answers 200 with an empty list for a page past the last one', async () => {
    const res = await get(`/categories?search=${tok}&hide_empty=false&page=9`);
    expect(res.status).toBe(200);
    expect(res.body.categories).toEqual([]);
    expect(res.body.total).toBe(3);
  });

  it('caps per_page at 50 and refuses a page or per_page that is not a positive integer', async () => {
    const res = await get(`/tags?per_page=500&hide_empty=false`);
    expect(res.status).toBe(200);
    expect(String(res.body.rest_url)).toContain('per_page=50');
    expect((res.body.tags as Term[]).length).toBeLessThanOrEqual(50);
    for (const q of ['per_page=0', 'page=0', 'page=-1', 'per_page=abc'])
      expectError(await get(`/categories?${q}`), 400, 'rest_invalid_param');
  });

  it('filters by include and exclude given as ids or slugs, and refuses terms that do not exist in the taxonomy', async () => {
    const base = `/categories?hide_empty=false&search=${tok}`;
    expect(namesOf(await get(`${base}&include=${empty.id},${child.slug}`))).toEqual([
      `Child ${tok}`,
      `Empty ${tok}`,
    ]);
    expect(namesOf(await get(`${base}&exclude=${empty.slug}&exclude=${parent.id}`))).toEqual([
      `Child ${tok}`,
    ]);
    for (const q of [
      'include=no-such-term-zz',
      `exclude=999999999`,
      `include=${tagA.id}`,
      `exclude=${tagA.slug}`,
    ]) {
      const res = await get(`${base}&${q}`);
      expectError(res, 400, 'rest_invalid_param');
      expect(Object.keys((res.body.data as Json).params as Json)).toEqual([q.split('=')[0]]);
    }
  });

  it('sorts by any field wp/v2 knows, in either order, and refuses other orderby and order values with a 400', async () => {
    const ids = [parent.id, child.id, empty.id].sort((x, y) => x - y);
    const res = await get(`/categories?hide_empty=false&search=${tok}&orderby=id&order=desc`);
    expect((res.body.categories as Term[]).map((x) => x.id)).toEqual([...ids].reverse());
    expect(namesOf(await get(`/categories?search=${tok}&orderby=count&order=desc&hide_empty=false`))[2]).toBe(
      `Empty ${tok}`,
    );
    expectError(await get('/categories?orderby=popularity'), 400, 'rest_invalid_param');
    expectError(await get('/categories?orderby='), 400, 'rest_invalid_param');
    expectError(await get('/categories?order=sideways'), 400, 'rest_invalid_param');
  });

  it('lists the children of an existing parent category and refuses an unknown parent', async () => {
    expect(namesOf(await get(`/categories?parent=${parent.id}&hide_empty=false`))).toEqual([`Child ${tok}`]);
    expectError(await get('/categories?parent=999999999'), 400, 'rest_invalid_param');
    expectError(await get(`/categories?parent=${tagA.id}`), 400, 'rest_invalid_param');
  });

  it('lists the terms of one event through post or its alias event, and refuses ids that are not events', async () => {
    const venueId = await seededVenueId();
    for (const name of ['post', 'event']) {
      expect(namesOf(await get(`/categories?${name}=${event.id}`))).toEqual([
        `Child ${tok}`,
        `Parent ${tok}`,
      ]);
      expect(namesOf(await get(`/tags?${name}=${event.id}`), 'tags')).toEqual([`Tag A ${tok}`]);
      expectError(await get(`/tags?${name}=999999999`), 400, 'rest_invalid_param');
      expectError(await get(`/tags?${name}=${venueId}`), 400, 'rest_invalid_param');
    }
  });

  it('does not show anonymous callers the terms of an event they may not read', async () => {
    const draft = await fx.event({
      title: `Draft ${tok}`,
      start_date: day(6),
      end_date: day(6, '12:00:00'),
      status: 'draft',
      tags: [tagA.id],
    });
    expectError(await get(`/tags?post=${draft.id}`), 401, 'rest_forbidden');
    expect(namesOf(await get(`/tags?post=${draft.id}&hide_empty=false`, 'editor'), 'tags')).toEqual([
      tagA.name,
    ]);
  });

  it('takes the event of `event` when both `post` and `event` are sent (TEC: the alias wins)', async () => {
    const other = await fx.event({
      title: `Other ${tok}`,
      start_date: day(7),
      end_date: day(7, '12:00:00'),
      tags: [tagB.id],
    });
    const both = `post=${event.id}&event=${other.id}&hide_empty=false`;
    expect(namesOf(await get(`/tags?${both}`), 'tags')).toEqual([tagB.name]);
    const swapped = `post=${other.id}&event=${event.id}&hide_empty=false`;
    expect(namesOf(await get(`/tags?${swapped}`), 'tags')).toEqual([tagA.name]);
  });

  it('filters by slug', async () => {
    expect(namesOf(await get(`/categories?slug=${child.slug}`))).toEqual([`Child ${tok}`]);
    expect(
      namesOf(await get(`/tags?slug=${tagB.slug},${tagA.slug}&hide_empty=false&orderby=slug`), 'tags'),
    ).toEqual([`Tag A ${tok}`, `Tag B ${tok}`]);
  });
});

describe('term records', () => {
  it('shapes list items as TEC does: categories carry parent, urls.up only under a parent, meta an empty list', async () => {
    const res = await get(`/categories?search=${tok}&hide_empty=false&orderby=id`);
    const [p, c] = res.body.categories as Term[];
    const keys = ['id', 'count', 'description', 'url', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'urls'];
    expect(Object.keys(p!).sort()).toEqual([...keys].sort());
    expect(Object.keys(p!).at(-1)).toBe('urls');
    expect(p).toMatchObject({
      id: parent.id,
      count: 1,
      description: 'The parent.',
      parent: 0,
      meta: [],
      taxonomy: t.mapping.event.categories!.taxonomy,
    });
    expect(p!.urls).toEqual({ self: `${t.api}/categories/${parent.id}`, collection: `${t.api}/categories` });
    expect(c!.urls).toEqual({
      self: `${t.api}/categories/${child.id}`,
      collection: `${t.api}/categories`,
      up: `${t.api}/categories/${parent.id}`,
    });
    expect(typeof p!.url).toBe('string');
    const tag = ((await get(`/tags?include=${tagA.id}`)).body.tags as Term[])[0]!;
    expect(Object.keys(tag).sort()).toEqual(keys.filter((k) => k !== 'parent').sort());
    expect(tag.urls).toEqual({ self: `${t.api}/tags/${tagA.id}`, collection: `${t.api}/tags` });
  });

  it('reads one term by id with the list fields plus _links, and answers 400 for ids of no term of that taxonomy', async () => {
    const res = await get(`/categories/${child.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: child.id,
      name: `Child ${tok}`,
      parent: parent.id,
      slug: child.slug,
    });
    expect(Object.keys(res.body).at(-1)).toBe('_links');
    expect((await get(`/tags/${tagA.id}`)).body).toMatchObject({ id: tagA.id, name: `Tag A ${tok}` });
    expectError(await get('/categories/999999999'), 400, 'rest_invalid_param');
    expectError(await get(`/categories/${tagA.id}`), 400, 'rest_invalid_param');
    expectError(await get(`/tags/${child.id}`), 400, 'rest_invalid_param');
    expectError(await get('/categories/abc'), 404, 'rest_no_route');
  });
});

describe('term writes', () => {
  it('creates a term with 201, the record with _links and a Location header', async () => {
    const res = await call<Term>(t, 'POST', '/tags', {
      as: 'editor',
      form: { name: `Made ${tok}`, description: 'Form body.' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    created.push({ kind: 'tags', id: res.body.id });
    expect(res.body).toMatchObject({ name: `Made ${tok}`, description: 'Form body.', count: 0 });
    expect(res.body).toHaveProperty('_links');
    expect(res.headers.get('location')).toContain(`/${res.body.id}`);
  });

  it('refuses writes to callers who cannot both edit events and manage the terms: 401 anonymous, 403 logged in', async () => {
    for (const kind of ['categories', 'tags']) {
      expectError(
        await call(t, 'POST', `/${kind}`, { body: { name: `Nope ${tok}` } }),
        401,
        'rest_forbidden',
      );
      for (const as of ['subscriber', 'contributor', 'author'] as const) {
        expectError(
          await call(t, 'POST', `/${kind}`, { as, body: { name: `Nope ${as} ${tok}` } }),
          403,
          'rest_forbidden',
        );
      }
    }
    expectError(
      await call(t, 'PATCH', `/categories/${empty.id}`, { body: { name: 'x' } }),
      401,
      'rest_forbidden',
    );
    expectError(await call(t, 'DELETE', `/tags/${tagB.id}`, { as: 'author' }), 403, 'rest_forbidden');
    expect(namesOf(await get(`/tags?search=Nope ${tok}&hide_empty=false`), 'tags')).toEqual([]);
  });

  it('validates a signed-in write before it checks permissions: missing or empty names, unknown parents and unknown ids are 400s', async () => {
    expectError(
      await call(t, 'POST', '/categories', { as: 'admin', body: { description: 'x' } }),
      400,
      'rest_missing_callback_param',
    );
    expectError(
      await call(t, 'POST', '/categories', { as: 'admin', body: { name: '' } }),
      400,
      'rest_invalid_param',
    );
    expectError(
      await call(t, 'POST', '/categories', {
        as: 'admin',
        body: { name: `Orphan ${tok}`, parent: 999999999 },
      }),
      400,
      'rest_invalid_param',
    );
    const as = 'subscriber';
    expectError(await call(t, 'DELETE', '/categories/999999999', { as }), 400, 'rest_invalid_param');
    expectError(
      await call(t, 'PUT', '/tags/999999999', { as, body: { name: 'x' } }),
      400,
      'rest_invalid_param',
    );
    // An anonymous write is refused before anything of it is read (TEC answers these 400 too; docs/differences.md).
    expectError(await call(t, 'DELETE', '/categories/999999999'), 401, 'rest_forbidden');
  });

  it('answers term_exists with the existing term id when a new term repeats a name', async () => {
    const dup = await call(t, 'POST', '/tags', { as: 'admin', body: { name: `Tag A ${tok}` } });
    expectError(dup, 400, 'term_exists');
    expect((dup.body.data as Json).term_id).toBe(tagA.id);
    const sibling = await call(t, 'POST', '/categories', {
      as: 'admin',
      body: { name: `Child ${tok}`, parent: parent.id },
    });
    expectError(sibling, 400, 'term_exists');
    expect((sibling.body.data as Json).term_id).toBe(child.id);
  });

  it('updates only the fields sent, with POST, PUT or PATCH', async () => {
    for (const [i, method] of ['POST', 'PUT', 'PATCH'].entries()) {
      const res = await call<Term>(t, method, `/categories/${empty.id}`, {
        as: 'editor',
        body: { name: `Empty ${i} ${tok}` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        id: empty.id,
        name: `Empty ${i} ${tok}`,
        slug: empty.slug,
        description: empty.description,
      });
    }
    const moved = await call<Term>(t, 'PATCH', `/categories/${empty.id}`, {
      as: 'admin',
      body: { parent: parent.id },
    });
    expect(moved.body.parent).toBe(parent.id);
    expect(moved.body.urls.up).toBe(`${t.api}/categories/${parent.id}`);
  });

  it('shows a renamed category and tag within a second in the events that embed them', async () => {
    await get(`/events/${event.id}`); // warm whatever caches embedding uses
    await call(t, 'PATCH', `/categories/${child.id}`, { as: 'admin', body: { name: `Renamed ${tok}` } });
    await call(t, 'PUT', `/tags/${tagA.id}`, { as: 'admin', body: { name: `Tag Renamed ${tok}` } });
    const res = await eventually(
      () => get(`/events/${event.id}`),
      (r) => (r.body.tags as Term[]).some((x) => x.name === `Tag Renamed ${tok}`),
    );
    expect((res.body.categories as Term[]).map((x) => x.name).sort()).toEqual([
      `Parent ${tok}`,
      `Renamed ${tok}`,
    ]);
    expect((res.body.tags as Term[]).map((x) => x.name)).toEqual([`Tag Renamed ${tok}`]);
  });

  it('deletes permanently, answering the term as it was, after which the id is unknown', async () => {
    const doomed = await make('tags', { name: `Doomed ${tok}`, description: 'Going.' });
    const res = await call<Term>(t, 'DELETE', `/tags/${doomed.id}`, { as: 'editor' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: doomed.id, name: `Doomed ${tok}`, description: 'Going.' });
    expect(res.body).not.toHaveProperty('_links');
    expectError(await get(`/tags/${doomed.id}`), 400, 'rest_invalid_param');
    expectError(await call(t, 'DELETE', `/tags/${doomed.id}`, { as: 'editor' }), 400, 'rest_invalid_param');
  });
});
