// The mock's terms, users, media, index and discovery routes, for both mappings.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockWordPress } from './index.ts';
import { call, loadMapping, PASSWORD, startSeeded } from './test-support.ts';

const wp = startSeeded('custom');
afterAll(() => wp.close());
beforeEach(() => wp.mock.reset());

describe('index and discovery', () => {
  it('describes the site with its URL, timezone and the four core namespaces', async () => {
    const r = await call('/');
    expect(r.body).toMatchObject({
      url: 'http://wordpress.mock',
      home: 'http://wordpress.mock',
      timezone_string: 'America/New_York',
    });
    expect(r.body.namespaces).toEqual(['oembed/1.0', 'wp/v2', 'wp-site-health/v1', 'batch/v1']);
  });

  it('lists the mapped post types and taxonomies with their rest_base', async () => {
    const types = await call('/wp/v2/types');
    expect(types.body.event).toMatchObject({
      slug: 'event',
      rest_base: 'events',
      taxonomies: ['event_type', 'event_label'],
    });
    expect(Object.keys(types.body)).toEqual(
      expect.arrayContaining(['post', 'page', 'attachment', 'location', 'host']),
    );
    const tax = await call('/wp/v2/taxonomies/event_type');
    expect(tax.body).toMatchObject({
      slug: 'event_type',
      rest_base: 'event_type',
      hierarchical: true,
      types: ['event'],
    });
    expect((await call('/wp/v2/taxonomies/nope')).status).toBe(404);
  });

  it('ignores the multilingual parameter like a WordPress without a multilingual plugin', async () => {
    const a = await call('/wp/v2/events?_fields=id');
    const b = await call('/wp/v2/events?_fields=id&wpml_language=es&lang=es&_locale=user');
    expect(b.body).toEqual(a.body);
  });

  it('answers unknown routes with rest_no_route', async () => {
    const r = await call('/wp/v2/nothing-here');
    expect([r.status, r.body.code]).toEqual([404, 'rest_no_route']);
  });
});

describe('terms', () => {
  it('counts published events only and sorts by name by default', async () => {
    const r = await call('/wp/v2/event_type?per_page=100');
    const names = r.body.map((t: { name: string }) => t.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const music = r.body.find((t: { slug: string }) => t.slug === 'music');
    const jazz = r.body.find((t: { slug: string }) => t.slug === 'jazz');
    expect(jazz.parent).toBe(music.id);
    const listed = await call(`/wp/v2/events?event_type=${jazz.id}&per_page=1`);
    expect(Number(listed.headers.get('X-WP-Total'))).toBe(jazz.count);
  });

  it('leaves parent out of non-hierarchical terms', async () => {
    const r = await call('/wp/v2/event_label?per_page=1');
    expect(Object.keys(r.body[0])).not.toContain('parent');
    expect(r.body[0].meta).toEqual([]);
  });

  it('refuses a duplicate name with term_exists and the existing id', async () => {
    const existing = await call('/wp/v2/event_label?slug=free');
    const r = await call('/wp/v2/event_label', { as: 'editor', json: { name: 'Free' } });
    expect([r.status, r.body.code, r.body.data.term_id]).toEqual([400, 'term_exists', existing.body[0].id]);
  });

  it('lets contributors create labels but not types, and needs force to delete', async () => {
    expect(
      (await call('/wp/v2/event_label', { as: 'contributor', json: { name: 'Rainy day' } })).status,
    ).toBe(201);
    const denied = await call('/wp/v2/event_type', { as: 'contributor', json: { name: 'Opera' } });
    expect([denied.status, denied.body.code]).toEqual([403, 'rest_cannot_create']);
    const created = await call('/wp/v2/event_type', { as: 'editor', json: { name: 'Opera', parent: 0 } });
    expect(created.status).toBe(201);
    const soft = await call(`/wp/v2/event_type/${created.body.id}`, { as: 'editor', method: 'DELETE' });
    expect([soft.status, soft.body.code]).toEqual([501, 'rest_trash_not_supported']);
    const hard = await call(`/wp/v2/event_type/${created.body.id}?force=true`, {
      as: 'editor',
      method: 'DELETE',
    });
    expect([hard.body.deleted, hard.body.previous.name]).toEqual([true, 'Opera']);
  });

  it('lists the terms of one post with post=ID', async () => {
    const event = [...wp.mock.store.posts.values()].find((p) => p.type === 'event' && p.status === 'publish');
    const r = await call(`/wp/v2/event_label?post=${event?.id}&per_page=100`);
    expect(r.body.map((t: { id: number }) => t.id).sort()).toEqual(
      [...(event?.terms.event_label ?? [])].sort(),
    );
  });
});

describe('users and media', () => {
  it('refuses users/me to anonymous callers and to a wrong password', async () => {
    expect((await call('/wp/v2/users/me')).body.code).toBe('rest_not_logged_in');
    expect((await call('/wp/v2/users/me', { as: 'admin', password: 'nope' })).status).toBe(401);
  });

  it.each([
    ['admin', 'administrator', true],
    ['editor', 'editor', true],
    ['author', 'author', false],
    ['contributor', 'contributor', false],
    ['subscriber', 'subscriber', false],
  ])('tells %s its role %s and capabilities (manage_categories: %s)', async (login, role, manage) => {
    const r = await call('/wp/v2/users/me?context=edit', { as: login });
    expect(r.body.roles).toEqual([role]);
    expect(r.body.capabilities[role]).toBe(true);
    expect(Boolean(r.body.capabilities.manage_categories)).toBe(manage);
  });

  it('gives context=edit on the user list only to list_users', async () => {
    expect((await call('/wp/v2/users?context=edit', { as: 'editor' })).status).toBe(403);
    expect((await call('/wp/v2/users?context=edit', { as: 'admin' })).body).toHaveLength(5);
  });

  it('serves the seeded images and embeds them as featured media', async () => {
    const media = await call('/wp/v2/media');
    expect(media.body).toHaveLength(3);
    expect(media.body[0].source_url).toMatch(/^http:\/\/wordpress\.mock\/wp-content\/uploads\/.+\.jpg$/);
    const withImage = [...wp.mock.store.posts.values()].find(
      (p) => p.type === 'event' && p.status === 'publish' && p.featuredMedia,
    );
    const r = await call(`/wp/v2/events/${withImage?.id}?_embed=wp:featuredmedia,wp:term`);
    expect(r.body._embedded['wp:featuredmedia'][0].id).toBe(withImage?.featuredMedia);
    expect(r.body._embedded['wp:term']).toHaveLength(2);
  });

  it("gives the seeded images WordPress's default sizes, as a site with GD makes them", async () => {
    const media = await call('/wp/v2/media?search=concert');
    const sizes = media.body[0].media_details.sizes;
    const dims = Object.fromEntries(
      Object.entries(sizes as Record<string, { width: number; height: number }>).map(([k, v]) => [
        k,
        `${v.width}x${v.height}`,
      ]),
    );
    // 1200×800: medium and large scaled into their boxes, thumbnail cropped, medium_large 768 wide, then full.
    expect(dims).toEqual({
      medium: '300x200',
      large: '1024x683',
      thumbnail: '150x150',
      medium_large: '768x512',
      full: '1200x800',
    });
    expect(sizes.medium.source_url).toMatch(/\/concert-hall-300x200\.jpg$/);
  });
});

describe('several mocks in one process', () => {
  it('serves each base URL from its own store and keeps the others when one closes', async () => {
    const other = startMockWordPress({
      mapping: loadMapping('tec'),
      baseUrl: 'http://other.mock/wp-json',
      usersPassword: PASSWORD,
    });
    const empty = await fetch('http://other.mock/wp-json/wp/v2/tribe_events');
    expect(empty.headers.get('X-WP-Total')).toBe('0');
    other.close();
    const r = await call('/wp/v2/events?per_page=1');
    expect(Number(r.headers.get('X-WP-Total'))).toBeGreaterThan(100);
  });
});
