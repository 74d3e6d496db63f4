// Tests for the facets a venue/organizer catalog keeps: raw values, publication date and the searched text.
import { afterEach, describe, expect, it, vi } from 'vitest';
import tec from '../../mappings/tec.json' with { type: 'json' };
import { mappingSchema } from '../mapping/schema.ts';
import type { WpClient } from '../wp/client.ts';
import { SAVE_SETTLE_MS } from '../wp/saves.ts';
import type { WpPost } from '../wp/types.ts';
import { LinkedCatalog, linkedFacetsOf } from './catalog.ts';

const mapping = mappingSchema.parse(tec);

const post = (meta: Record<string, string>, extra: Partial<WpPost> = {}): WpPost => ({
  id: 12,
  date: '2024-05-10T14:30:00',
  date_gmt: '2024-05-10T12:30:00',
  modified: '2024-05-10T14:30:00',
  modified_gmt: '2024-05-10T12:30:00',
  slug: 'blue-hall',
  status: 'publish',
  type: 'tribe_venue',
  link: 'https://example.com/venue/blue-hall/',
  title: { rendered: 'Blue &amp; Hall', raw: 'Blue & Hall' },
  content: { rendered: '<p>A <strong>fine</strong> room.</p>', raw: '<p>A <strong>fine</strong> room.</p>' },
  excerpt: { rendered: '', raw: '' },
  meta,
  ...extra,
});

describe('linkedFacetsOf', () => {
  it('keeps id, status, slug, the publication date and the raw name', () => {
    const f = linkedFacetsOf('venue', post({}), mapping);
    expect(f).toMatchObject({
      id: 12,
      status: 'publish',
      slug: 'blue-hall',
      date: '2024-05-10 14:30:00',
      name: 'Blue & Hall',
    });
  });

  it.each([
    ['venue', { _VenueZip: '28001' }, '28001'],
    ['venue', { _VenueStateProvince: 'Comunidad' }, 'comunidad'],
    ['venue', { _VenuePhone: '+34 91' }, '+34 91'],
    ['organizer', { _OrganizerEmail: 'Hi@Example.com' }, 'hi@example.com'],
    ['organizer', { _OrganizerWebsite: 'https://x.example' }, 'x.example'],
  ] as const)('searches the %s field %o (lower-cased)', (kind, meta, needle) => {
    expect(linkedFacetsOf(kind, post(meta), mapping).searchText).toContain(needle);
  });

  it('does not search fields TEC does not search (a venue website, an organizer city)', () => {
    expect(
      linkedFacetsOf('venue', post({ _VenueURL: 'https://only-url.example' }), mapping).searchText,
    ).not.toContain('only-url');
  });

  it('matches the visible words of the description as well as its markup', () => {
    const text = linkedFacetsOf('venue', post({}), mapping).searchText;
    expect(text).toContain('a fine room');
    expect(text).toContain('<strong>fine</strong>');
  });

  it.each([
    [
      'venue',
      {
        _VenueAddress: '5 Hidden Ln',
        _VenueCity: 'Hiddenville',
        _VenuePhone: '555-0199',
        _VenueZip: '99999',
      },
    ],
    ['organizer', { _OrganizerPhone: '555-0199', _OrganizerEmail: 'hidden@example.com' }],
  ] as const)(
    'keeps a protected %s searchable by its name alone, never by a field its password blanks',
    (kind, meta) => {
      const f = linkedFacetsOf(kind, post(meta, { password: 'letmein' }), mapping);
      expect(f.protected).toBe(true);
      expect(f.openText).toBe('blue & hall');
      for (const v of Object.values(meta)) expect(f.searchText).toContain(v.toLowerCase());
    },
  );

  it('records the stored excerpt, empty when none is stored', () => {
    expect(linkedFacetsOf('venue', post({}), mapping).values.excerpt).toBe('');
  });
});

/**
 * One venue on a fake WordPress, as `held.venue` is when asked: `list` answers the checks (`modified_after`), `all`
 * the crawls and re-reads (each logged in `reads`: `all` or the ids). A crawl after the first answers `slow.crawlMs`
 * later, a re-read `slow.readMs` later, each with what it read when it began.
 */
function site(
  held: { venue: WpPost },
  reads: string[],
  slow: { crawlMs?: number; readMs?: number } = {},
): WpClient {
  return {
    options: { serviceAuth: 'svc' },
    list: async (req: { query: Record<string, string> }) => {
      const after = Date.parse(req.query.modified_after!);
      const items = Date.parse(`${held.venue.modified_gmt}Z`) > after ? [held.venue] : [];
      return { items: structuredClone(items), total: items.length, totalPages: 1 };
    },
    all: (req: { query: Record<string, string> }) => {
      reads.push(req.query.include ?? 'all');
      const read = [structuredClone(held.venue)];
      const ms = req.query.include ? slow.readMs : reads.length > 1 ? slow.crawlMs : 0;
      if (!ms) return Promise.resolve(read);
      return new Promise((resolve) => setTimeout(() => resolve(read), ms));
    },
  } as unknown as WpClient;
}

/**
 * A catalog of one venue (Madrid, saved long ago) loaded, then a minute older than its maximum age: its next use starts
 * a refreshing crawl. Fake timers; `slow` as {@link site} takes it.
 */
async function oldCatalog(slow: { crawlMs?: number; readMs?: number }) {
  vi.useFakeTimers({ now: Date.parse('2024-05-10T12:30:00.400Z'), toFake: ['setTimeout', 'Date'] });
  const held = { venue: post({ _VenueCity: 'Madrid' }, { modified_gmt: '2024-05-10T10:00:00' }) };
  const reads: string[] = [];
  const catalog = new LinkedCatalog({ wp: site(held, reads, slow), mapping }, { maxAgeMs: 60_000 });
  const city = async () => (await catalog.all('venue', 'en')).get(12)?.values.city;
  expect(await city()).toBe('Madrid');
  await vi.advanceTimersByTimeAsync(61_000);
  return { held, reads, city };
}

describe("the catalog's checks of what changed", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads a record a check found saved in the last seconds once more, in case it read half the save', async () => {
    vi.useFakeTimers({ now: Date.parse('2024-05-10T12:30:00.400Z'), toFake: ['setTimeout', 'Date'] });
    const held = { venue: post({ _VenueCity: 'Madrid' }, { modified_gmt: '2024-05-10T10:00:00' }) };
    const reads: string[] = [];
    const wp = site(held, reads);
    const changed: number[][] = [];
    const catalog = new LinkedCatalog({ wp, mapping }, { onChange: (_kind, ids) => changed.push(ids) });
    const city = async () => (await catalog.all('venue', 'en')).get(12)?.values.city;
    expect(await city()).toBe('Madrid');
    // An editor saves the venue in wp-admin: WordPress has written its row (new stamp), not yet its meta.
    held.venue = { ...held.venue, modified_gmt: '2024-05-10T12:30:00', meta: {} };
    expect(await city()).toBeUndefined();
    held.venue = { ...held.venue, meta: { _VenueCity: 'Toledo' } };
    // The same stamp is no change to the checks meanwhile; once the save is surely over, it is one once more.
    expect(await city()).toBeUndefined();
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS);
    expect(await city()).toBe('Toledo');
    expect(reads).toEqual(['all', '12', '12']);
    expect(changed).toEqual([[12], [12]]);
    // And never again.
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS);
    expect(await city()).toBe('Toledo');
    expect(reads).toHaveLength(3);
  });

  it('reads a record its crawl found saved in the last seconds once more, in case the crawl read half the save', async () => {
    // A full crawl answers 8 s after it began (a site of thousands of venues).
    const { held, reads, city } = await oldCatalog({ crawlMs: 8_000 });
    // The catalog is old: a use starts a crawl, which reads the venue while an editor's save has written its row and
    // not yet its meta. The save ends at once; the check of the same use finds the stamp, and reads it whole.
    held.venue = { ...held.venue, modified_gmt: '2024-05-10T12:31:01', meta: {} };
    const first = city();
    held.venue = { ...held.venue, meta: { _VenueCity: 'Toledo' } };
    expect(await first).toBe('Toledo');
    // The checks read it once more when the save is surely over (#checkAgain), before the crawl answers.
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS + 500);
    expect(await city()).toBe('Toledo');
    // The crawl's answer does not put its half save back over the copy re-read since it began; and what it found
    // saved in the last seconds it reads once more (had no check re-read it, its half save would be mended so).
    await vi.advanceTimersByTimeAsync(8_000 - SAVE_SETTLE_MS - 500);
    expect(await city()).toBe('Toledo');
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS);
    expect(await city()).toBe('Toledo');
    // Once only.
    await vi.advanceTimersByTimeAsync(SAVE_SETTLE_MS);
    expect(await city()).toBe('Toledo');
    expect(reads.filter((r) => r === '12')).toHaveLength(3);
    expect(reads.filter((r) => r === 'all')).toHaveLength(2);
  });

  it('keeps a change a check re-read during a refreshing crawl that had read the record before it', async () => {
    const { held, reads, city } = await oldCatalog({ crawlMs: 8_000 });
    // A use starts a refreshing crawl, which reads the venue as it long was (an old stamp: nothing to settle).
    expect(await city()).toBe('Madrid');
    // An editor's save of a few seconds before (its save long over) is found by the next check, which reads it.
    await vi.advanceTimersByTimeAsync(1_000);
    held.venue = { ...held.venue, modified_gmt: '2024-05-10T12:30:55', meta: { _VenueCity: 'Toledo' } };
    expect(await city()).toBe('Toledo');
    // The crawl answers with its older copy; the catalog keeps the change, and no check would have found it again.
    await vi.advanceTimersByTimeAsync(8_000);
    expect(await city()).toBe('Toledo');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await city()).toBe('Toledo');
    expect(reads.filter((r) => r === 'all')).toHaveLength(2);
  });

  it('keeps a re-read that answers after a refreshing crawl has', async () => {
    // The crawl answers 3 s after it began; a re-read 4 s after.
    const { held, reads, city } = await oldCatalog({ crawlMs: 3_000, readMs: 4_000 });
    expect(await city()).toBe('Madrid');
    // Found by the check of the next use (a save of some seconds before, long over): its re-read begins at once and
    // answers after the crawl.
    held.venue = { ...held.venue, modified_gmt: '2024-05-10T12:30:55', meta: { _VenueCity: 'Toledo' } };
    const during = city();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await during).toBe('Toledo');
    expect(await city()).toBe('Toledo');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await city()).toBe('Toledo');
    expect(reads).toEqual(['all', 'all', '12']);
  });
});
