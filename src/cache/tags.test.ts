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

  it.each([
    [{ kind: 'venue' } as const, { id: 5, venue: 'Hall' }, ['venue:5']],
    [{ kind: 'organizer' } as const, { id: 6, organizer: 'Ann' }, ['organizer:6']],
    [
      { kind: 'term' } as const,
      { id: 9, taxonomy: 'tribe_events_cat', name: 'x' },
      ['term:tribe_events_cat:9'],
    ],
    [
      { kind: 'venue', list: 'venues' } as const,
      { venues: [{ id: 5 }] },
      ['list:event', 'list:venue', 'venue:5'],
    ],
    // The kind is the route's word, not the body's: a venue record without its name is still a venue.
    [{ kind: 'venue' } as const, { id: 5 }, ['venue:5']],
  ])('tags %o answers', (shows, body, expected) => {
    expect(readTags(shows, body)).toEqual(expected);
  });
});

describe('writeTags', () => {
  it('invalidates the written event, its linked records and the lists of every kind touched', () => {
    expect(writeTags('event', event(4))).toEqual([
      'event:4',
      'list:event',
      'list:organizer',
      'list:term',
      'list:venue',
      'organizer:60',
      'term:post_tag:8',
      'term:tribe_events_cat:7',
      'venue:50',
    ]);
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
    expect(answerTags(venueRoutes.list, false, { venues: [{ id: 5 }] })).toEqual([
      'list:event',
      'list:venue',
      'venue:5',
    ]);
    expect(answerTags(venueRoutes.update, true, { id: 5, venue: 'Hall' })).toEqual(['list:venue', 'venue:5']);
    // A route that declares nothing falls back to its kind's list.
    expect(answerTags({ id: 'discovery.index' }, false, {})).toEqual(['list:discovery']);
  });
});
