// Tests for the venue/organizer list filter: table cases for each filter, ordering and paging laws by fast-check.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { visibleTo } from '../events/visibility.ts';
import type { LinkedFacets } from './catalog.ts';
import { byDateDesc, filterLinked as filterBy } from './list.ts';

const facet = (
  id: number,
  status: string,
  date: string,
  searchText = '',
  more: Partial<LinkedFacets> = {},
): LinkedFacets => ({
  id,
  status,
  slug: `s${id}`,
  date,
  name: `n${id}`,
  values: {},
  searchText,
  author: 1,
  protected: false,
  openText: `n${id}`,
  ...more,
});

type Filter = Omit<Parameters<typeof filterBy>[1], 'visible'> & {
  statuses: string[];
  ownStatuses?: string[];
  author?: number;
};
/** The filter with the statuses anyone's (and, with `author`, the caller's own) records may have. */
const filterLinked = (items: LinkedFacets[], { statuses, ownStatuses = [], author, ...f }: Filter) =>
  filterBy(items, { ...f, visible: visibleTo({ statuses, ownStatuses, author }) });

const items = [
  facet(1, 'publish', '2020-01-01 10:00:00', 'blue note hall\nnew york'),
  facet(2, 'publish', '2020-01-03 10:00:00', 'jazz cellar\nmadrid'),
  facet(3, 'draft', '2020-01-04 10:00:00', 'secret room\nmadrid'),
  facet(4, 'publish', '2020-01-03 10:00:00', 'opera house\nmadrid'),
  facet(5, 'trash', '2020-01-05 10:00:00', 'old barn\nmadrid'),
  facet(6, 'draft', '2020-01-06 10:00:00', 'secret draft of 2', { author: 2 }),
  facet(7, 'publish', '2019-01-01 10:00:00', 'n7\n9 hidden road', { protected: true }),
];

describe('filterLinked', () => {
  it.each([
    [
      'keeps only the statuses asked, newest first (higher id first on equal dates)',
      { statuses: ['publish'] },
      [4, 2, 1, 7],
    ],
    ['shows drafts when their status is asked', { statuses: ['publish', 'draft'] }, [6, 3, 4, 2, 1, 7]],
    [
      'matches search as a case-insensitive substring of any field',
      { statuses: ['publish'], search: 'MADRID' },
      [4, 2],
    ],
    ['matches text inside a word, as a LIKE does', { statuses: ['publish'], search: 'ote' }, [1]],
    ['answers nothing when the search matches nothing', { statuses: ['publish'], search: 'zzz' }, []],
    ['keeps only the ids of `only`', { statuses: ['publish'], only: new Set([1, 2, 3]) }, [2, 1]],
    ['drops the ids of `exclude`', { statuses: ['publish'], exclude: new Set([2]) }, [4, 1, 7]],
    [
      'intersects every filter',
      { statuses: ['publish', 'draft'], search: 'madrid', only: new Set([2, 3, 4]), exclude: new Set([4]) },
      [3, 2],
    ],
    ['lists trash only when asked', { statuses: ['trash'] }, [5]],
    [
      "lists a status allowed only on the caller's own records for those records alone",
      { statuses: ['publish'], ownStatuses: ['draft'], author: 2 },
      [6, 4, 2, 1, 7],
    ],
    [
      "counts and searches no one else's draft (a contributor's view)",
      { statuses: ['publish'], ownStatuses: ['draft'], author: 2, search: 'secret' },
      [6],
    ],
    [
      'matches a protected record by its name only, whoever asks (no list shows the rest to anyone)',
      { statuses: ['publish'], search: 'hidden' },
      [],
    ],
    ['matches a protected record by name', { statuses: ['publish'], search: 'n7' }, [7]],
  ])('%s', (_label, f, expected) => {
    expect(filterLinked(items, f).map((x) => x.id)).toEqual(expected);
  });
});

const facetsArb = fc.uniqueArray(fc.integer({ min: 1, max: 1000 }), { maxLength: 40 }).chain((ids) =>
  fc.tuple(
    ...ids.map((id) =>
      fc
        .record({
          status: fc.constantFrom('publish', 'draft', 'private'),
          day: fc.integer({ min: 1, max: 28 }),
          text: fc.constantFrom('alpha', 'beta', 'gamma delta'),
        })
        .map((r) => facet(id, r.status, `2020-02-${String(r.day).padStart(2, '0')} 10:00:00`, r.text)),
    ),
  ),
);

describe('filterLinked laws', () => {
  it('returns a subset of the input, sorted by publication date descending', () => {
    fc.assert(
      fc.property(facetsArb, fc.subarray(['publish', 'draft', 'private']), (all, statuses) => {
        const out = filterLinked(all, { statuses });
        expect(out.every((x) => statuses.includes(x.status) && all.includes(x))).toBe(true);
        for (let i = 1; i < out.length; i++) expect(byDateDesc(out[i - 1], out[i])).toBeLessThan(0);
      }),
    );
  });

  it('never returns a record that does not contain the search text', () => {
    fc.assert(
      fc.property(facetsArb, fc.constantFrom('alp', 'ta', 'delta', 'x'), (all, search) => {
        const out = filterLinked(all, { statuses: ['publish', 'draft', 'private'], search });
        expect(out.map((x) => x.id).sort()).toEqual(
          all
            .filter((x) => x.searchText.includes(search))
            .map((x) => x.id)
            .sort(),
        );
      }),
    );
  });

  it('answers the same set whatever the input order', () => {
    fc.assert(
      fc.property(facetsArb, (all) => {
        const f = { statuses: ['publish', 'draft'] };
        expect(filterLinked([...all].reverse(), f)).toEqual(filterLinked(all, f));
      }),
    );
  });
});
