// Tests for the pure seed translation: dates, meta formats, dependency waves and request bodies.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SeedPost, SeedTerm } from '../mocks/seed-types.ts';
import { mappingSchema } from '../src/mapping/schema.ts';
import {
  chunk,
  type IdMaps,
  postBody,
  postWaves,
  restMetaValue,
  termWaves,
  toRestDate,
} from './seed-plan.ts';

const tec = mappingSchema.parse(
  JSON.parse(readFileSync(new URL('../mappings/tec.json', import.meta.url), 'utf8')),
);

describe('toRestDate', () => {
  it.each([
    ['2026-11-22 09:05:00', '2026-11-22T09:05:00'],
    ['2027-01-01 00:00:00', '2027-01-01T00:00:00'],
    ['2026-11-22T09:05:00', '2026-11-22T09:05:00'],
  ])('turns %s into %s', (input, expected) => {
    expect(toRestDate(input)).toBe(expected);
  });

  it.each(['2026-11-22', '22/11/2026 09:00:00', '', '2026-11-22 9:05:00'])('refuses %j', (input) => {
    expect(() => toRestDate(input)).toThrow(/YYYY-MM-DD/);
  });
});

describe('restMetaValue', () => {
  it.each([
    ['int', 7, 7],
    ['int', '12', 12],
    ['int-list', [3, '4'], [3, 4]],
    ['int-list', 5, [5]],
    ['string-list', ['10', 20], ['10', '20']],
    ['bool', true, '1'],
    ['bool', false, ''],
    ['bool', '1', '1'],
    ['yes-flag', 'yes', 'yes'],
    ['one-flag', '1', '1'],
    ['datetime', '2026-11-22 10:00:00', '2026-11-22 10:00:00'],
    ['string', 10800, '10800'],
  ] as const)('stores format %s value %j as %j', (format, value, expected) => {
    expect(restMetaValue(format, value as never)).toEqual(expected);
  });

  it('rejects a non-integer for an integer key', () => {
    expect(() => restMetaValue('int', 'abc')).toThrow(/not an integer/);
  });

  it('rejects a list for a single string key', () => {
    expect(() => restMetaValue('string', ['a', 'b'])).toThrow(/a list/);
  });
});

/** A random forest of terms: each term's parent (if any) is an earlier term; the list is shuffled. */
const termForest = fc.array(fc.nat(), { minLength: 1, maxLength: 30 }).chain((parents) =>
  fc.shuffledSubarray(
    parents.map((p, i): SeedTerm => {
      const parent = i > 0 && p % 3 !== 0 ? `t${p % i}` : undefined;
      return { slug: `t${i}`, name: `T${i}`, description: '', ...(parent ? { parent } : {}) };
    }),
    { minLength: parents.length, maxLength: parents.length },
  ),
);

describe('termWaves', () => {
  it('puts every term after its parent and keeps each term exactly once', () => {
    fc.assert(
      fc.property(termForest, (terms) => {
        const waves = termWaves(terms);
        const waveOf = new Map<string, number>();
        waves.forEach((w, i) => {
          for (const t of w) waveOf.set(t.slug, i);
        });
        expect(waves.flat()).toHaveLength(terms.length);
        for (const t of terms) {
          if (t.parent) expect(waveOf.get(t.parent)!).toBeLessThan(waveOf.get(t.slug)!);
        }
      }),
    );
  });

  it('skips terms that already exist and lets children of existing terms go first', () => {
    const terms: SeedTerm[] = [
      { slug: 'music', name: 'Music', description: '' },
      { slug: 'jazz', name: 'Jazz', description: '', parent: 'music' },
    ];
    expect(termWaves(terms, new Set(['music']))).toEqual([[terms[1]]]);
  });

  it('reports a parent that exists nowhere', () => {
    expect(() => termWaves([{ slug: 'a', name: 'A', description: '', parent: 'ghost' }])).toThrow(/ghost/);
  });
});

function post(key: string, kind: SeedPost['kind'], links: Record<string, string[]> = {}): SeedPost {
  return {
    key,
    kind,
    postType: tec[kind].postType,
    status: 'publish',
    author: 'admin',
    title: key,
    content: '',
    excerpt: '',
    slug: key,
    date: '2026-11-01 10:00:00',
    meta: {},
    links,
    terms: {},
  };
}

describe('postWaves', () => {
  it('creates venues and organizers before the events that link to them', () => {
    const posts = [
      post('e1', 'event', { _EventVenueID: ['v1'], _EventOrganizerID: ['o1'] }),
      post('v1', 'venue'),
      post('o1', 'organizer'),
      post('e2', 'event'),
    ];
    expect(postWaves(posts).map((w) => w.map((p) => p.key))).toEqual([['v1', 'o1', 'e2'], ['e1']]);
  });

  it('treats already created posts as resolved links', () => {
    const posts = [post('v1', 'venue'), post('e1', 'event', { _EventVenueID: ['v1'] })];
    expect(postWaves(posts, new Set(['v1'])).map((w) => w.map((p) => p.key))).toEqual([['e1']]);
  });

  it('reports links to posts that are not in the seed', () => {
    expect(() => postWaves([post('e1', 'event', { _EventVenueID: ['nowhere'] })])).toThrow(/nowhere/);
  });
});

describe('postBody', () => {
  const ids: IdMaps = {
    users: new Map([
      ['admin', 1],
      ['editor', 3],
    ]),
    posts: new Map([
      ['v1', 11],
      ['o1', 21],
      ['o2', 22],
    ]),
    terms: new Map([
      ['tribe_events_cat', new Map([['music', 5]])],
      ['tags', new Map([['jazz', 9]])],
    ]),
  };

  it('resolves author, links and terms to ids and converts dates and formats', () => {
    const p: SeedPost = {
      ...post('e1', 'event', { _EventVenueID: ['v1'], _EventOrganizerID: ['o2', 'o1'] }),
      author: 'editor',
      status: 'future',
      password: 'letmein',
      menuOrder: -1,
      date: '2026-12-04 08:00:00',
      meta: { _EventStartDate: '2026-12-05 19:00:00', _EventShowMap: true, _EventAllDay: 'yes' },
      terms: { tribe_events_cat: ['music'], tags: ['jazz'] },
    };
    expect(postBody(p, tec, ids)).toEqual({
      title: 'e1',
      content: '',
      excerpt: '',
      slug: 'e1',
      status: 'future',
      author: 3,
      date: '2026-12-04T08:00:00',
      password: 'letmein',
      menu_order: -1,
      meta: {
        _EventStartDate: '2026-12-05 19:00:00',
        _EventShowMap: '1',
        _EventAllDay: 'yes',
        _EventVenueID: 11,
        _EventOrganizerID: [22, 21],
      },
      tribe_events_cat: [5],
      tags: [9],
    });
  });

  it.each([
    ['an unknown author', { author: 'nobody' }, /user 'nobody'/],
    ['an unknown term', { terms: { tags: ['rock'] } }, /term 'rock'/],
    ['an uncreated link', { links: { _EventVenueID: ['v9'] } }, /post 'v9'/],
  ])('fails loudly on %s', (_what, patch, message) => {
    expect(() => postBody({ ...post('e1', 'event'), ...patch }, tec, ids)).toThrow(message);
  });
});

describe('chunk', () => {
  it('splits into pieces of at most the size, in order, losing nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 30 }), (xs, size) => {
        const parts = chunk(xs, size);
        expect(parts.flat()).toEqual(xs);
        expect(parts.every((p) => p.length >= 1 && p.length <= size)).toBe(true);
        expect(parts.length).toBe(Math.ceil(xs.length / size));
      }),
    );
  });
});
