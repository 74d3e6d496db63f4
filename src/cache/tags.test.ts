// Tags of response bodies and writes: every record a response shows, so a change to any of them drops it.
import { describe, expect, it } from 'vitest';
import { writeTags } from './serve.ts';
import { kindOfRoute, tagsOfBody } from './tags.ts';

const event = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  start_date: '2030-01-01 10:00:00',
  venue: { id: 50, venue: 'Hall' },
  organizer: [{ id: 60, organizer: 'Org' }],
  categories: [{ id: 7, taxonomy: 'tribe_events_cat' }],
  tags: [{ id: 8, taxonomy: 'post_tag' }],
  ...extra,
});

describe('kindOfRoute', () => {
  it.each([
    ['events.list', 'event'],
    ['venues.read', 'venue'],
    ['organizers.list', 'organizer'],
    ['categories.list', 'category'],
  ])('%s serves %s records', (route, kind) => {
    expect(kindOfRoute(route)).toBe(kind);
  });
});

describe('tagsOfBody', () => {
  it('tags a list with its list tag and every event, venue, organizer and term shown', () => {
    expect(tagsOfBody('events.list', { events: [event(1), event(2, { venue: [] })], total: 2 })).toEqual([
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
    expect(tagsOfBody('events.list', { events: [], total: 0 })).toEqual(['list:event']);
  });

  it('tags a single event with its own records only', () => {
    expect(tagsOfBody('events.read', event(3))).toContain('event:3');
    expect(tagsOfBody('events.read', event(3))).not.toContain('list:event');
  });

  it.each([
    ['venues.read', { id: 5, venue: 'Hall' }, ['venue:5']],
    ['organizers.read', { id: 6, organizer: 'Ann' }, ['organizer:6']],
    ['categories.read', { id: 9, taxonomy: 'tribe_events_cat', name: 'x' }, ['term:tribe_events_cat:9']],
    ['venues.list', { venues: [{ id: 5, venue: 'Hall' }] }, ['list:event', 'list:venue', 'venue:5']],
    ['discovery.root', { name: 'site' }, ['list:discovery']],
  ])('tags %s bodies', (route, body, expected) => {
    expect(tagsOfBody(route, body)).toEqual(expected);
  });
});

describe('writeTags', () => {
  it('invalidates the written event, its linked records and the lists of every kind touched', () => {
    expect(writeTags('events.update', event(4))).toEqual([
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

  it('invalidates at least the list of the route kind when the body names nothing', () => {
    expect(writeTags('events.delete', { deleted: true })).toEqual(['list:event']);
  });
});
