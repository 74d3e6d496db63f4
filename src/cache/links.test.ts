import { describe, expect, it } from 'vitest';
import { type Linkable, linkTags } from './links.ts';

const ev = (over: Partial<Linkable> = {}): Linkable => ({
  status: 'publish',
  start: '2030-01-01 10:00:00',
  end: '2030-01-01 12:00:00',
  hidden: false,
  venue: null,
  organizers: [],
  categories: [],
  tags: [],
  ...over,
});

describe('linkTags', () => {
  it.each<[string, Linkable | undefined, Linkable | undefined, string[]]>([
    ['a create with no links', undefined, ev(), []],
    ['a create with a venue', undefined, ev({ venue: 5 }), ['links:venue']],
    [
      'a create with an organizer and a category',
      undefined,
      ev({ organizers: [6], categories: [7] }),
      ['links:organizer', 'links:category'],
    ],
    ['a title edit of a linked event', ev({ venue: 5, tags: [8] }), ev({ venue: 5, tags: [8] }), []],
    ['a venue change', ev({ venue: 5 }), ev({ venue: 9 }), ['links:venue']],
    ['a venue removed', ev({ venue: 5 }), ev(), ['links:venue']],
    [
      'a status change of a linked event',
      ev({ venue: 5, organizers: [6] }),
      ev({ venue: 5, organizers: [6], status: 'draft' }),
      ['links:venue', 'links:organizer'],
    ],
    ['a status change of an unlinked event', ev(), ev({ status: 'trash' }), []],
    [
      'a date change (only_with_upcoming)',
      ev({ venue: 5 }),
      ev({ venue: 5, start: '2031-01-01 10:00:00' }),
      ['links:venue'],
    ],
    [
      'hidden from listings',
      ev({ organizers: [6] }),
      ev({ organizers: [6], hidden: true }),
      ['links:organizer'],
    ],
    [
      'a tag moved to the categories',
      ev({ tags: [8] }),
      ev({ categories: [8] }),
      ['links:category', 'links:tag'],
    ],
    ['a category added, no tag', ev({ tags: [8] }), ev({ categories: [7], tags: [8] }), ['links:category']],
    ['a tag removed', ev({ categories: [7], tags: [8] }), ev({ categories: [7] }), ['links:tag']],
    [
      'a delete of a linked event',
      ev({ venue: 5, categories: [7] }),
      undefined,
      ['links:venue', 'links:category'],
    ],
    ['a delete of an unlinked event', ev(), undefined, []],
  ])('%s', (_name, before, after, expected) => {
    expect(linkTags(before, after)).toEqual(expected);
  });
});
