// Tests for reading event facets out of wp/v2 posts under both mappings.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Mapping, mappingSchema } from '../mapping/schema.ts';
import type { WpPost } from '../wp/types.ts';
import { facetsOf, indexFieldsOf, indexQueryOf } from './facets.ts';

const load = (name: string): Mapping =>
  mappingSchema.parse(
    JSON.parse(readFileSync(new URL(`../../mappings/${name}.json`, import.meta.url), 'utf8')),
  );
const tec = load('tec');
const custom = load('custom');

const base = {
  date_gmt: null,
  modified: '2026-01-02T03:04:05',
  type: 'tribe_events',
  link: 'https://example.test/event/x/',
};

const tecPost: WpPost = {
  ...base,
  id: 7,
  status: 'publish',
  slug: 'jazz-night',
  title: { raw: 'Jazz &amp; <em>Blues</em> Night', rendered: 'ignored' },
  content: {
    raw: '<!-- wp:paragraph --><p>Live <strong>music</strong></p><p>Bring friends</p>',
    rendered: '',
  },
  excerpt: { raw: 'A Night Out', rendered: '' },
  date: '2026-01-01T09:00:00',
  modified_gmt: '2026-01-02T08:04:05',
  password: 's3cret',
  author: 3,
  menu_order: -1,
  tribe_events_cat: [4, 5],
  tags: [9],
  meta: {
    _EventStartDate: '2026-05-01 20:00:00',
    _EventEndDate: '2026-05-01 23:00:00',
    _EventStartDateUTC: '2026-05-02 00:00:00',
    _EventEndDateUTC: '2026-05-02 03:00:00',
    _EventAllDay: 'yes',
    _EventHideFromUpcoming: 'yes',
    _tribe_featured: '1',
    _EventVenueID: 12,
    _EventOrganizerID: [21, '22'],
  },
};

describe('facetsOf', () => {
  it('reads every facet of a TEC event', () => {
    expect(facetsOf(tecPost, tec)).toEqual({
      id: 7,
      status: 'publish',
      slug: 'jazz-night',
      title: 'Jazz & Blues Night',
      start: '2026-05-01 20:00:00',
      end: '2026-05-01 23:00:00',
      startUtc: '2026-05-02 00:00:00',
      endUtc: '2026-05-02 03:00:00',
      categories: [4, 5],
      tags: [9],
      venue: 12,
      organizers: [21, 22],
      featured: true,
      hidden: true,
      sticky: true,
      allDay: true,
      parent: 0,
      protected: true,
      author: 3,
      date: '2026-01-01 09:00:00',
      modifiedGmt: '2026-01-02 08:04:05',
      hasExcerpt: true,
      // Protected (it has a password): its title alone, the one searched field its password does not blank.
      searchText: 'jazz & blues night',
    });
  });

  it('searches an event without a password by title, excerpt and content, one per line', () => {
    expect(facetsOf({ ...tecPost, password: '' }, tec).searchText).toBe(
      'jazz & blues night\na night out\n live music  bring friends ',
    );
  });

  it('leaves facets a TEC event does not store false or empty', () => {
    const f = facetsOf(
      { ...tecPost, menu_order: 0, password: '', meta: {}, tribe_events_cat: [], tags: [] },
      tec,
    );
    expect(f).toMatchObject({
      start: '',
      end: '',
      startUtc: null,
      venue: null,
      organizers: [],
      featured: false,
      hidden: false,
      sticky: false,
      allDay: false,
      protected: false,
      categories: [],
    });
  });

  it('reads a custom-mapped event and treats facets the mapping lacks as false or null', () => {
    const post: WpPost = {
      ...base,
      id: 8,
      status: 'draft',
      slug: 'x',
      title: { rendered: 'Rendered only' },
      date: '2026-01-01T09:00:00',
      modified_gmt: '2026-01-02T08:04:05',
      author: 1,
      event_type: [2],
      event_label: [3, 4],
      meta: {
        event_start: '2026-06-01 10:00:00',
        event_end: '2026-06-01 12:00:00',
        is_featured: '1',
        location_id: '5',
        host_ids: [6],
      },
    };
    expect(facetsOf(post, custom)).toMatchObject({
      title: 'Rendered only',
      start: '2026-06-01 10:00:00',
      startUtc: null,
      categories: [2],
      tags: [3, 4],
      venue: 5,
      organizers: [6],
      featured: true,
      hidden: false,
      sticky: false,
    });
  });
});

describe('indexFieldsOf', () => {
  it('asks only for what the facets need, taxonomies and meta keys included', () => {
    const fields = indexFieldsOf(tec);
    for (const f of [
      'id',
      'status',
      'slug',
      'title',
      'content',
      'excerpt',
      'date',
      'modified_gmt',
      'password',
    ]) {
      expect(fields).toContain(f);
    }
    expect(fields).toEqual(
      expect.arrayContaining(['menu_order', 'tribe_events_cat', 'tags', 'meta._EventStartDate']),
    );
    expect(fields).not.toContain('meta._EventCost');
    expect(fields).not.toContain('link');
    expect(indexFieldsOf(custom)).toEqual(
      expect.arrayContaining(['event_type', 'event_label', 'meta.location_id']),
    );
  });

  it('crawls in edit context with trash in the status list', () => {
    expect(indexQueryOf(tec)).toMatchObject({
      context: 'edit',
      status: 'publish,future,draft,pending,private,trash',
    });
  });
});
