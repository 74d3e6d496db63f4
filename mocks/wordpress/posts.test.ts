// The mock's post routes behave like WordPress 6.1 (wordpress-upstream.md §5): lists, visibility, writes, meta.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { call, NOW, startSeeded } from './test-support.ts';

const wp = startSeeded('tec');
afterAll(() => wp.close());
beforeEach(() => wp.mock.reset());

const events = () => [...wp.mock.store.posts.values()].filter((p) => p.type === 'tribe_events');
const firstWith = (status: string, extra: (p: ReturnType<typeof events>[number]) => boolean = () => true) => {
  const p = events().find((e) => e.status === status && e.password === '' && extra(e));
  if (!p) throw new Error(`no ${status} event`);
  return p;
};

describe('listing events', () => {
  it('counts only published events for anonymous callers and paginates with headers', async () => {
    const published = events().filter((e) => e.status === 'publish').length;
    const r = await call('/wp/v2/tribe_events?per_page=100&page=2');
    expect(r.status).toBe(200);
    expect(r.headers.get('X-WP-Total')).toBe(String(published));
    expect(r.headers.get('X-WP-TotalPages')).toBe(String(Math.ceil(published / 100)));
    expect(r.headers.get('Link')).toContain('rel="prev"');
    expect(r.body.every((e: { status: string }) => e.status === 'publish')).toBe(true);
  });

  it.each([
    ['per_page=101', 'per_page'],
    ['per_page=0', 'per_page'],
    ['orderby=meta_value', 'orderby'],
    ['include=abc', 'include'],
    ['modified_after=yesterday', 'modified_after'],
  ])('rejects %s with rest_invalid_param naming %s', async (query, param) => {
    const r = await call(`/wp/v2/tribe_events?${query}`);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('rest_invalid_param');
    expect(Object.keys(r.body.data.params)).toEqual([param]);
  });

  it('says exactly what WordPress says about per_page', async () => {
    const r = await call('/wp/v2/tribe_events?per_page=101');
    expect(r.body.data.params.per_page).toBe('per_page must be between 1 (inclusive) and 100 (inclusive)');
  });

  it('answers a page past the end with rest_post_invalid_page_number', async () => {
    const r = await call('/wp/v2/tribe_events?page=99');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('rest_post_invalid_page_number');
  });

  it('forbids draft status to anonymous callers but gives every status to an editor', async () => {
    const anon = await call('/wp/v2/tribe_events?status=draft');
    expect(anon.status).toBe(400);
    expect(anon.body.data.details.status).toMatchObject({
      code: 'rest_forbidden_status',
      data: { status: 401 },
    });
    const r = await call('/wp/v2/tribe_events?status=any&per_page=100&_fields=status', { as: 'editor' });
    expect(r.headers.get('X-WP-Total')).toBe(String(events().length));
    const pages = await Promise.all(
      [1, 2, 3].map((p) =>
        call(`/wp/v2/tribe_events?status=any&per_page=100&page=${p}&_fields=status`, { as: 'editor' }),
      ),
    );
    const statuses = new Set(pages.flatMap((p) => p.body.map((e: { status: string }) => e.status)));
    expect([...statuses].sort()).toEqual(['draft', 'future', 'pending', 'private', 'publish']);
  });

  it('ANDs search words, each matched in title, excerpt or content', async () => {
    const r = await call('/wp/v2/tribe_events?search=JAZZ%20night&per_page=100&_fields=id,title');
    expect(r.body.length).toBeGreaterThan(0);
    const expected = events().filter(
      (e) =>
        e.status === 'publish' &&
        /jazz/i.test(e.title + e.content + e.excerpt) &&
        /night/i.test(e.title + e.content + e.excerpt),
    );
    expect(r.body.map((e: { id: number }) => e.id).sort()).toEqual(expected.map((e) => e.id).sort());
  });

  it('keeps the include order with orderby=include and filters by a taxonomy id', async () => {
    const ids = events()
      .filter((e) => e.status === 'publish')
      .slice(0, 3)
      .map((e) => e.id)
      .reverse();
    const r = await call(`/wp/v2/tribe_events?include=${ids.join(',')}&orderby=include&_fields=id`);
    expect(r.body.map((e: { id: number }) => e.id)).toEqual(ids);
    const jazz = [...wp.mock.store.terms.values()].find((t) => t.slug === 'jazz');
    const byCat = await call(`/wp/v2/tribe_events_cat/${jazz?.id}`);
    const listed = await call(`/wp/v2/tribe_events?tribe_events_cat=${jazz?.id}&per_page=100`);
    expect(listed.headers.get('X-WP-Total')).toBe(String(byCat.body.count));
  });

  it('selects nested meta keys with _fields and returns absent single keys as empty strings', async () => {
    const r = await call('/wp/v2/tribe_events?per_page=5&_fields=id,meta._EventStartDate,meta._EventAllDay');
    for (const e of r.body) {
      expect(Object.keys(e)).toEqual(['id', 'meta']);
      expect(Object.keys(e.meta).sort()).toEqual(['_EventAllDay', '_EventStartDate']);
      expect(['', 'yes']).toContain(e.meta._EventAllDay);
    }
  });

  it('returns only events modified after a UTC instant', async () => {
    const target = firstWith('publish');
    wp.advance(60_000);
    wp.mock.store.updatePost(target.id, { title: 'Edited in wp-admin' });
    const since = new Date(NOW.getTime() + 30_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const r = await call(`/wp/v2/tribe_events?modified_after=${since}&_fields=id,title`);
    expect(r.body).toEqual([{ id: target.id, title: { rendered: 'Edited in wp-admin' } }]);
  });
});

describe('reading one event', () => {
  it('hides drafts from anonymous callers (401) and from subscribers (403), not from editors', async () => {
    const draft = firstWith('draft');
    expect((await call(`/wp/v2/tribe_events/${draft.id}`)).body.code).toBe('rest_forbidden');
    expect((await call(`/wp/v2/tribe_events/${draft.id}`)).status).toBe(401);
    expect((await call(`/wp/v2/tribe_events/${draft.id}`, { as: 'subscriber' })).status).toBe(403);
    expect((await call(`/wp/v2/tribe_events/${draft.id}`, { as: 'editor' })).status).toBe(200);
  });

  it('answers 404 rest_post_invalid_id for unknown ids and for ids of another post type', async () => {
    const venue = [...wp.mock.store.posts.values()].find((p) => p.type === 'tribe_venue');
    for (const id of [999999, venue?.id]) {
      const r = await call(`/wp/v2/tribe_events/${id}`);
      expect([r.status, r.body.code]).toEqual([404, 'rest_post_invalid_id']);
    }
  });

  it('hides protected content unless the right password is given, and rejects a wrong one with 403', async () => {
    const p = events().find((e) => e.password !== '' && e.status === 'publish');
    const plain = await call(`/wp/v2/tribe_events/${p?.id}`);
    expect(plain.body.content).toEqual({ rendered: '', protected: true });
    expect(plain.body.meta._EventStartDate).not.toBe('');
    const right = await call(`/wp/v2/tribe_events/${p?.id}?password=letmein`);
    expect(right.body.content.rendered).toContain('<p>');
    const wrong = await call(`/wp/v2/tribe_events/${p?.id}?password=nope`);
    expect([wrong.status, wrong.body.code]).toEqual([403, 'rest_post_incorrect_password']);
  });

  it('refuses context=edit to anonymous callers and shows raw fields and the password to editors', async () => {
    const p = events().find((e) => e.password !== '' && e.status === 'publish');
    expect((await call(`/wp/v2/tribe_events/${p?.id}?context=edit`)).body.code).toBe(
      'rest_forbidden_context',
    );
    const r = await call(`/wp/v2/tribe_events/${p?.id}?context=edit`, { as: 'editor' });
    expect(r.body.password).toBe('letmein');
    expect(r.body.title.raw).toBe(p?.title);
  });
});

describe('writing events', () => {
  it('writes the post even when featured_media is no image, as set_post_thumbnail failures are ignored', async () => {
    const image = [...wp.mock.store.posts.values()].find((p) => p.type === 'attachment')!;
    const other = firstWith('publish');
    const withImage = await call('/wp/v2/tribe_events', {
      as: 'editor',
      json: { title: 'Pic', featured_media: image.id },
    });
    expect(withImage.body.featured_media).toBe(image.id);
    const id = withImage.body.id;
    const missing = await call(`/wp/v2/tribe_events/${id}`, {
      as: 'editor',
      json: { featured_media: 99999999 },
    });
    expect(missing.status).toBe(200);
    expect(missing.body.featured_media).toBe(image.id);
    const notImage = await call(`/wp/v2/tribe_events/${id}`, {
      as: 'editor',
      json: { featured_media: other.id },
    });
    expect(notImage.status).toBe(200);
    expect(notImage.body.featured_media).toBe(0);
  });

  it('creates with meta, terms and a unique slug, and moves modified on update', async () => {
    const taken = firstWith('publish').slug;
    const body = {
      title: 'New Gig',
      slug: taken,
      status: 'publish',
      meta: { _EventStartDate: '2026-12-01 20:00:00', _EventOrganizerID: [5, '6'] },
      tags: [999999],
    };
    const r = await call('/wp/v2/tribe_events', { as: 'author', json: body });
    expect(r.status).toBe(201);
    expect(r.body.slug).toMatch(new RegExp(`^${taken}-\\d+$`));
    expect(events().filter((e) => e.slug === r.body.slug)).toHaveLength(1);
    expect(r.body.meta._EventOrganizerID).toEqual([5, 6]);
    expect(r.body.tags).toEqual([]);
    wp.advance(5_000);
    const u = await call(`/wp/v2/tribe_events/${r.body.id}`, {
      as: 'author',
      json: { meta: { _EventCost: '15' } },
    });
    expect(u.body.meta._EventCost).toBe('15');
    expect(u.body.modified_gmt > r.body.modified_gmt).toBe(true);
  });

  it('rejects a non-integer value for an integer meta key with rest_invalid_type', async () => {
    const p = firstWith('publish');
    const r = await call(`/wp/v2/tribe_events/${p.id}`, {
      as: 'editor',
      method: 'PUT',
      json: { meta: { _EventVenueID: 'abc' } },
    });
    expect([r.status, r.body.code, r.body.message]).toEqual([
      400,
      'rest_invalid_type',
      'meta._EventVenueID is not of type integer.',
    ]);
  });

  it('accepts form bodies', async () => {
    const r = await call('/wp/v2/tribe_events', {
      as: 'editor',
      form: { title: 'Form Event', 'meta[_EventCost]': '5' },
    });
    expect([r.status, r.body.status, r.body.meta._EventCost]).toEqual([201, 'draft', '5']);
  });

  it.each([
    [undefined, 401, 'rest_cannot_create'],
    ['subscriber', 403, 'rest_cannot_create'],
  ])('refuses creation by %s with %i %s', async (as, status, code) => {
    const r = await call('/wp/v2/tribe_events', { as, json: { title: 'x' } });
    expect([r.status, r.body.code]).toEqual([status, code]);
  });

  it('treats a wrong application password as anonymous: 401 on writes', async () => {
    const r = await call('/wp/v2/tribe_events', { as: 'admin', password: 'wrong', json: { title: 'x' } });
    expect([r.status, r.body.code]).toEqual([401, 'rest_cannot_create']);
  });

  it('lets a contributor save a draft but not publish', async () => {
    const draft = await call('/wp/v2/tribe_events', {
      as: 'contributor',
      json: { title: 'Mine', status: 'pending' },
    });
    expect(draft.status).toBe(201);
    const pub = await call('/wp/v2/tribe_events', {
      as: 'contributor',
      json: { title: 'Mine', status: 'publish' },
    });
    expect([pub.status, pub.body.code]).toEqual([403, 'rest_cannot_publish']);
    const others = firstWith('publish', (e) => e.author !== 4);
    const edit = await call(`/wp/v2/tribe_events/${others.id}`, { as: 'contributor', json: { title: 'x' } });
    expect([edit.status, edit.body.code]).toEqual([403, 'rest_cannot_edit']);
  });

  it('schedules a publish request dated in the future', async () => {
    const r = await call('/wp/v2/tribe_events', {
      as: 'editor',
      json: { title: 'Later', status: 'publish', date: '2027-01-01T10:00:00' },
    });
    expect(r.body.status).toBe('future');
  });

  it('trashes, refuses to trash twice, then deletes for good', async () => {
    const p = firstWith('publish');
    const t = await call(`/wp/v2/tribe_events/${p.id}`, { as: 'editor', method: 'DELETE' });
    expect([t.status, t.body.status]).toEqual([200, 'trash']);
    const again = await call(`/wp/v2/tribe_events/${p.id}`, { as: 'editor', method: 'DELETE' });
    expect([again.status, again.body.code]).toEqual([410, 'rest_already_trashed']);
    const gone = await call(`/wp/v2/tribe_events/${p.id}?force=true`, { as: 'editor', method: 'DELETE' });
    expect([gone.body.deleted, gone.body.previous.id]).toEqual([true, p.id]);
    expect((await call(`/wp/v2/tribe_events/${p.id}`)).status).toBe(404);
  });
});

describe('schema', () => {
  it('lists every registered meta key in the OPTIONS schema', async () => {
    const res = await fetch('http://wordpress.mock/wp-json/wp/v2/tribe_events', { method: 'OPTIONS' });
    const body = await res.json();
    expect(body.schema.properties.meta.properties._EventOrganizerID.type).toBe('array');
    expect(body.schema.properties.meta.properties._EventVenueID.type).toBe('integer');
    expect(Object.keys(body.schema.properties.meta.properties)).toContain('_EventStartDateUTC');
  });
});

describe('registered defaults', () => {
  it('reads an absent show-map flag as its registered default and an empty row as off', async () => {
    const p = firstWith('publish');
    wp.mock.store.updatePost(p.id, { meta: { _EventShowMap: null, _EventShowMapLink: '' } });
    const r = await call(`/wp/v2/tribe_events/${p.id}?_fields=meta`);
    expect(r.body.meta._EventShowMap).toBe('1');
    expect(r.body.meta._EventShowMapLink).toBe('');
  });
});

describe('dates of new posts', () => {
  it('dates a new post at the clock and keeps it published through later updates in the same second', async () => {
    const c = await call('/wp/v2/tribe_events', { as: 'admin', json: { title: 'Now', status: 'publish' } });
    expect(c.body.date_gmt).toBe(wp.now().toISOString().slice(0, 19));
    const u = await call(`/wp/v2/tribe_events/${c.body.id}`, {
      as: 'admin',
      json: { password: 'opensesame' },
    });
    expect(u.body.status).toBe('publish');
    const anon = await call(`/wp/v2/tribe_events/${c.body.id}`);
    expect([anon.status, anon.body.content.protected]).toEqual([200, true]);
  });
});
