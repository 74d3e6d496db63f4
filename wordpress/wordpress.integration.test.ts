// Against a real WordPress (Debian packages): wp.sh start/stop, the companion plugin, users, and the seeder.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedPost, SeedSite } from '../mocks/seed-types.ts';
import { mappingSchema } from '../src/mapping/schema.ts';
import { ownSitePort } from '../test/setup/sites.ts';
import { guard } from '../test/slack.ts';
import { seedSite } from './seeder.ts';
import { ensureWordPress, stopWordPress, type WordPressUpstream } from './upstream.ts';

const installed = existsSync('/usr/share/wordpress') && existsSync('/usr/sbin/mariadbd');
const tec = mappingSchema.parse(
  JSON.parse(readFileSync(new URL('../mappings/tec.json', import.meta.url), 'utf8')),
);

/** A tiny site: a category tree, a venue, two organizers, a published event linking them and a draft. */
const tiny: SeedSite = {
  timezone: 'America/New_York',
  users: [{ login: 'editor', role: 'editor', email: 'ed@example.test', name: 'Ed Itor' }],
  taxonomies: {
    tribe_events_cat: [
      { slug: 'jazz', name: 'Jazz', description: '', parent: 'music' },
      { slug: 'music', name: 'Music', description: 'All music' },
    ],
    tags: [{ slug: 'free', name: 'Free', description: '' }],
  },
  posts: [
    {
      key: 'jazz-night',
      kind: 'event',
      postType: 'tribe_events',
      status: 'publish',
      author: 'editor',
      title: 'Jazz night',
      content: '<p>Swing.</p>',
      excerpt: 'Swing.',
      slug: 'jazz-night',
      date: '2026-01-10 09:30:00',
      menuOrder: -1,
      meta: { _EventStartDate: '2027-01-10 20:00:00', _EventShowMap: true, _EventCost: '10' },
      links: { _EventVenueID: ['blue-hall'], _EventOrganizerID: ['ann', 'bob'] },
      terms: { tribe_events_cat: ['jazz'], tags: ['free'] },
    },
    ...['blue-hall', 'ann', 'bob'].map(
      (key, i): SeedPost => ({
        key,
        kind: i === 0 ? 'venue' : 'organizer',
        postType: i === 0 ? 'tribe_venue' : 'tribe_organizer',
        status: 'publish',
        author: 'admin',
        title: key,
        content: '',
        excerpt: '',
        slug: key,
        date: '2026-01-01 12:00:00',
        meta: i === 0 ? { _VenueCity: 'Boston' } : { _OrganizerEmail: `${key}@example.test` },
        links: {},
        terms: {},
      }),
    ),
    {
      key: 'secret-draft',
      kind: 'event',
      postType: 'tribe_events',
      status: 'draft',
      author: 'contributor',
      title: 'Secret draft',
      content: '',
      excerpt: '',
      slug: 'secret-draft',
      date: '2026-01-02 12:00:00',
      meta: { _EventStartDate: '2027-02-01 10:00:00' },
      links: {},
      terms: {},
    },
  ],
};

describe.skipIf(!installed)('the local WordPress', { timeout: 120_000 }, () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'wp-it-'));
  let wp: WordPressUpstream;
  const get = async (path: string, auth?: string) => {
    const headers: Record<string, string> = auth
      ? { authorization: `Basic ${Buffer.from(auth).toString('base64')}` }
      : {};
    const res = await fetch(wp.url + path, { headers });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & unknown[] };
  };

  beforeAll(async () => {
    wp = await ensureWordPress({
      mapping: 'mappings/tec.json',
      stateDir,
      port: await ownSitePort(stateDir, 5),
      seed: false,
    });
  }, 180_000);

  afterAll(async () => {
    await stopWordPress(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  }, 120_000);

  it('lets all five users in with the shared application password', async () => {
    for (const login of ['admin', 'editor', 'author', 'contributor', 'subscriber']) {
      const me = await get('/wp/v2/users/me?context=edit', `${login}:${wp.usersPassword}`);
      expect(me.status, login).toBe(200);
      expect(me.body.username).toBe(login);
    }
    expect((await get('/wp/v2/users/me', 'admin:wrongpassword')).status).toBe(401);
  });

  it('exposes the mapping post types and taxonomies under their rest_base', async () => {
    const types = (await get('/wp/v2/types')).body as unknown as Record<string, { rest_base: string }>;
    expect(types.tribe_events?.rest_base).toBe('tribe_events');
    expect(types.tribe_venue?.rest_base).toBe('tribe_venue');
    const taxes = (await get('/wp/v2/taxonomies?type=tribe_events')).body as unknown as Record<
      string,
      unknown
    >;
    expect(Object.keys(taxes).sort()).toEqual(['post_tag', 'tribe_events_cat']);
  });

  it('seeds terms, links and meta, and a second run creates nothing', async () => {
    const first = await seedSite({ url: wp.url, auth: wp.auth, mapping: tec, site: tiny, log: () => {} });
    expect(first).toMatchObject({ terms: 3, posts: 5 });
    const [event] = (await get('/wp/v2/tribe_events?slug=jazz-night&context=edit', wp.auth)).body as Array<
      Record<string, unknown> & { meta: Record<string, unknown> }
    >;
    const [venue] = (await get('/wp/v2/tribe_venue?slug=blue-hall')).body as Array<{ id: number }>;
    const orgs = (await get('/wp/v2/tribe_organizer?orderby=slug&order=asc')).body as Array<{ id: number }>;
    expect(event?.meta._EventVenueID).toBe(venue?.id);
    expect(event?.meta._EventOrganizerID).toEqual(orgs.map((o) => o.id));
    expect(event?.meta._EventShowMap).toBe('1');
    expect(event?.menu_order).toBe(-1);
    expect(event?.date).toBe('2026-01-10T09:30:00');
    expect(event?.date_gmt).toBe('2026-01-10T14:30:00'); // New York is UTC-5 in January
    const [jazz] = (await get('/wp/v2/tribe_events_cat?slug=jazz')).body as Array<{
      id: number;
      parent: number;
    }>;
    const [music] = (await get('/wp/v2/tribe_events_cat?slug=music')).body as Array<{ id: number }>;
    expect(jazz?.parent).toBe(music?.id);
    expect(event?.tribe_events_cat).toEqual([jazz?.id]);
    const again = await seedSite({ url: wp.url, auth: wp.auth, mapping: tec, site: tiny, log: () => {} });
    expect(again).toEqual({ terms: 0, posts: 0, users: 0 });
  });

  it('never shows a draft to an anonymous reader', async () => {
    const anon = (await get('/wp/v2/tribe_events')).body as Array<{ slug: string }>;
    expect(anon.map((e) => e.slug)).toEqual(['jazz-night']);
    const admin = (await get('/wp/v2/tribe_events?status=draft', wp.auth)).body as Array<{ slug: string }>;
    expect(admin.map((e) => e.slug)).toEqual(['secret-draft']);
  });

  it('starting again while running is quick and prints the same credentials', async () => {
    const t0 = performance.now();
    const again = await ensureWordPress({
      mapping: 'mappings/tec.json',
      stateDir,
      port: Number(new URL(wp.url).port),
      seed: false,
    });
    expect(again).toEqual(wp);
    // A check of the running site, not an install (tens of seconds): 0.3–1 s alone, 3.8 s once in CI's lanes.
    expect(performance.now() - t0).toBeLessThan(guard(3000));
  });
});
