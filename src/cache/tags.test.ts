// Tags of answers and writes, as the routes declare what they answer: every record an answer shows, so a change to
// any of them drops it; and every resource route declares it.
import { describe, expect, it } from 'vitest';
import { venueRoutes } from '../contract/linked.ts';
import type { Deps } from '../deps.ts';
import { eventBindings } from '../events/routes.ts';
import { linkedBindings } from '../linked/routes.ts';
import { termBindings } from '../terms/routes.ts';
import { answerTags, kindOfRoute, readTags, showsOf, writeTags } from './tags.ts';

const event = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  start_date: '2030-01-01 10:00:00',
  venue: { id: 50, venue: 'Hall' },
  organizer: [{ id: 60, organizer: 'Org' }],
  categories: [{ id: 7, taxonomy: 'tribe_events_cat' }],
  tags: [{ id: 8, taxonomy: 'post_tag' }],
  ...extra,
});

describe('image tags', () => {
  it("tag an answer with every attachment it shows: the event's, and its venue's and organizers'", () => {
    const body = {
      events: [
        event(1, {
          image: { id: 70, url: 'x' },
          venue: { id: 50, image: { id: 71 } },
          organizer: [
            { id: 60, image: false },
            { id: 61, image: { id: 72 } },
          ],
        }),
        event(2, { image: false }),
      ],
    };
    const tags = readTags({ kind: 'event', list: 'events' }, body);
    expect(tags.filter((t) => t.startsWith('media:'))).toEqual(['media:70', 'media:71', 'media:72']);
    expect(readTags({ kind: 'venue' }, { id: 5, image: { id: 73 } })).toEqual(['media:73', 'venue:5']);
    expect(
      readTags({ kind: 'organizer', list: 'organizers' }, { organizers: [{ id: 6, image: { id: 74 } }] }),
    ).toEqual(['list:organizer', 'media:74', 'organizer:6']);
  });
});

describe('readTags', () => {
  it('tags a list with its list tag and every event, venue, organizer and term shown', () => {
    const body = { events: [event(1), event(2, { venue: [] })], total: 2 };
    expect(readTags({ kind: 'event', list: 'events' }, body)).toEqual([
      'event:1',
      'event:2',
      'list:event',
      'organizer:60',
      'term:post_tag:8',
      'term:tribe_events_cat:7',
      'venue:50',
    ]);
  });

  it('tags an empty list with its list tag, so a new event drops it', () => {
    expect(readTags({ kind: 'event', list: 'events' }, { events: [], total: 0 })).toEqual(['list:event']);
  });

  it('tags a single event with its own records only, whatever fields a password blanked', () => {
    expect(readTags({ kind: 'event' }, event(3))).toContain('event:3');
    expect(readTags({ kind: 'event' }, event(3))).not.toContain('list:event');
    // A protected event's answer has no links left; it is still the event's.
    expect(readTags({ kind: 'event' }, { id: 3, venue: [], organizer: [], all_day: null })).toEqual([
      'event:3',
    ]);
  });

  it('tags an occurrence or an override with its series, whose rule and fields it shows; a series only once', () => {
    const occurrence = 2 ** 52 + 61 * 2 ** 26 + 1000;
    const tags = readTags({ kind: 'event' }, event(occurrence, { series_id: 61 }));
    expect(tags).toContain(`event:${occurrence}`);
    expect(tags).toContain('event:61');
    expect(readTags({ kind: 'event' }, event(62, { series_id: 61 }))).toContain('event:61');
    expect(
      readTags({ kind: 'event' }, event(61, { series_id: 61 })).filter((t) => t.startsWith('event:')),
    ).toEqual(['event:61']);
    expect(readTags({ kind: 'event' }, event(3, { series_id: null }))).not.toContain('event:null');
  });

  it.each([
    [{ kind: 'venue' } as const, { id: 5, venue: 'Hall' }, ['venue:5']],
    [{ kind: 'organizer' } as const, { id: 6, organizer: 'Ann' }, ['organizer:6']],
    [
      { kind: 'term' } as const,
      { id: 9, taxonomy: 'tribe_events_cat', name: 'x' },
      ['term:tribe_events_cat:9'],
    ],
    // A venue list follows events only through the arguments that ask about them (below).
    [{ kind: 'venue', list: 'venues' } as const, { venues: [{ id: 5 }] }, ['list:venue', 'venue:5']],
    // A term list shows counts and hides empty terms by default: it always follows the events' terms.
    [
      { kind: 'term', list: 'categories' } as const,
      { categories: [{ id: 9, taxonomy: 'tribe_events_cat' }] },
      ['links:category', 'list:term', 'term:tribe_events_cat:9'],
    ],
    // The kind is the route's word, not the body's: a venue record without its name is still a venue.
    [{ kind: 'venue' } as const, { id: 5 }, ['venue:5']],
  ])('tags %o answers', (shows, body, expected) => {
    expect(readTags(shows, body)).toEqual(expected);
  });

  it.each([
    [{ has_events: 'true' }, ['links:venue', 'list:venue', 'venue:5']],
    [{ has_events: '0' }, ['links:venue', 'list:venue', 'venue:5']],
    [{ only_with_upcoming: '1' }, ['links:venue', 'list:venue', 'venue:5']],
    [{ event: '12' }, ['event:12', 'list:venue', 'venue:5']],
    [{ search: 'hall', event: 'x' }, ['list:venue', 'venue:5']],
  ])('tags a venue list asked %o with what its arguments make it follow', (params, expected) => {
    expect(readTags({ kind: 'venue', list: 'venues' }, { venues: [{ id: 5 }] }, params)).toEqual(expected);
  });

  it("tags a term list of one event's terms with that event", () => {
    expect(readTags({ kind: 'term', list: 'tags' }, { tags: [] }, { post: '7' })).toEqual([
      'event:7',
      'links:tag',
      'list:term',
    ]);
  });
});

describe('writeTags', () => {
  it('invalidates the written event and the event lists, not the records it links nor their lists', () => {
    // What the event's links changed in the venue, organizer and term lists comes from the index (links.test.ts).
    expect(writeTags('event', event(4))).toEqual(['event:4', 'list:event']);
  });

  it('invalidates a written venue, organizer or term and its list', () => {
    expect(writeTags('venue', { id: 5, venue: 'Hall' })).toEqual(['list:venue', 'venue:5']);
    expect(writeTags('term', { id: 9, taxonomy: 'post_tag' })).toEqual(['list:term', 'term:post_tag:9']);
  });

  it('invalidates at least the list of the kind when the body names nothing', () => {
    expect(writeTags('event', { deleted: true })).toEqual(['list:event']);
  });
});

describe('the routes', () => {
  const deps = {} as Deps;
  const bindings = [...eventBindings(deps), ...linkedBindings(deps), ...termBindings(deps)];

  it('each say what they return, listed under the key their list answers use', () => {
    for (const b of bindings) {
      const shows = showsOf(b.contract.returns);
      expect(shows, b.contract.id).toBeDefined();
      const [group, action] = b.contract.id.split('.');
      // Feeds answer a calendar of the events a list or a read shows, listed under the list's key.
      const listed = action === 'list' || action === 'feed' || action === 'read-feed';
      expect(shows?.list, b.contract.id).toBe(listed ? group : undefined);
      expect(shows?.kind).toBe(
        group === 'categories' || group === 'tags' ? 'term' : kindOfRoute(b.contract.id),
      );
    }
  });

  it('give their answers the tags, read tags on GET and write tags otherwise', () => {
    expect(answerTags(venueRoutes.list, false, { venues: [{ id: 5 }] })).toEqual(['list:venue', 'venue:5']);
    expect(answerTags(venueRoutes.list, false, { venues: [] }, { has_events: '1' })).toEqual([
      'links:venue',
      'list:venue',
    ]);
    expect(answerTags(venueRoutes.update, true, { id: 5, venue: 'Hall' })).toEqual(['list:venue', 'venue:5']);
    // A route that declares nothing falls back to its kind's list.
    expect(answerTags({ id: 'discovery.index' }, false, {})).toEqual(['list:discovery']);
  });
});
