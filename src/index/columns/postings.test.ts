// A search term's rows from the postings (and, for a phrase, the pair signatures) are those a plain scan of the text finds.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { TextPostings } from './postings.ts';
import { ALIVE, Rows, type StoredEvent } from './rows.ts';

const WORDS = [
  'jazz',
  'night',
  'a',
  'of',
  'rock',
  'roll',
  'café',
  'naïve',
  'n',
  '日本語',
  'the',
  'jazzy',
  'usic',
];
const SEPS = [' ', ' ', '\n', "'", ', ', '-', '. '];
const text = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPS)), { maxLength: 12 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

const eventOf = (id: number, searchText: string): StoredEvent => ({
  id,
  status: 'publish',
  slug: `e${id}`,
  start: '2026-01-01 10:00:00',
  end: '',
  categories: [],
  tags: [],
  venue: null,
  organizers: [],
  featured: false,
  hidden: false,
  parent: 0,
  protected: false,
  author: 1,
  date: '2025-12-01 08:00:00',
  modifiedGmt: '2026-01-01 00:00:00',
  hasExcerpt: false,
  searchText,
});

/** The rows alive whose text holds `term`: what the postings must answer. */
const scan = (rows: Rows, term: string): number[] => {
  const needle = Buffer.from(term, 'utf8');
  const out: number[] = [];
  for (let r = 0; r < rows.used; r++)
    if (rows.meta[r] & ALIVE && rows.textOf(r).includes(needle)) out.push(r);
  return out;
};

describe('TextPostings', () => {
  it('finds the rows holding a term as a plain scan does: phrases, words, parts of words; posted or not, alive or not', () => {
    // Each op: add an event (id, text), kill one, or post some rows' words; then every term is checked.
    const op = fc.tuple(fc.nat(9), fc.nat(30), text, fc.nat(20));
    const term = fc.oneof(
      text,
      fc
        .tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPS), fc.constantFrom(...WORDS))
        .map((p) => p.join('')),
      fc.constantFrom('jazz night', 'z n', 'rock n', 'ght. roc', 'jazz', 'azz'),
    );
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 80 }),
        fc.array(term, { minLength: 1, maxLength: 8 }),
        (ops, terms) => {
          const rows = new Rows();
          const text = new TextPostings(rows, false);
          for (const [kind, id0, t, n] of ops) {
            const id = id0 + 1;
            const was = rows.rowOf.get(id);
            if (kind < 2) text.indexWords(n);
            else if (kind < 4) {
              if (was !== undefined) rows.kill(was, id);
            } else {
              if (was !== undefined) rows.kill(was, id);
              rows.add(eventOf(id, t));
            }
          }
          // A substring of some row's text too, cut anywhere: it is in at least one row.
          const some = rows.used ? rows.textOf(ops.length % rows.used).toString('utf8') : '';
          for (const q of [...terms, some.slice(1, -1)]) {
            if (q === '') continue;
            // Live rows only: dead ones stay in the lists, and a query skips them.
            const got = [...text.rowsContaining(q)].filter((r) => rows.meta[r] & ALIVE);
            expect(got, JSON.stringify(q)).toEqual(scan(rows, q));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('makes a term ahead in slices (prepare) that answers as a plain scan does, rows added and posted meanwhile', async () => {
    // Ops as above; then a term is prepared, the ops after it running at its pauses; then every term is checked.
    const op = fc.tuple(fc.nat(9), fc.nat(30), text, fc.nat(20));
    const word = fc.constantFrom('jazz', 'azz', 'night', 'roll', 'usic', 'n', 'naïve', 'caf');
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { maxLength: 60 }),
        fc.array(op, { maxLength: 20 }),
        word,
        async (before, during, w) => {
          const rows = new Rows();
          const text = new TextPostings(rows, false);
          const apply = ([kind, id0, t, n]: [number, number, string, number]) => {
            const id = id0 + 1;
            const was = rows.rowOf.get(id);
            if (kind < 2) text.indexWords(n);
            else if (kind < 4) {
              if (was !== undefined) rows.kill(was, id);
            } else {
              if (was !== undefined) rows.kill(was, id);
              rows.add(eventOf(id, t));
            }
          };
          for (const o of before) apply(o);
          let at = 0;
          // ms 0 and pieces of 1 row: a pause after every row of postings read.
          await text.prepare(
            w,
            0,
            async () => {
              if (at < during.length) apply(during[at++]);
            },
            1,
          );
          for (; at < during.length; at++) apply(during[at]);
          const got = [...text.rowsContaining(w)].filter((r) => rows.meta[r] & ALIVE);
          expect(got, w).toEqual(scan(rows, w));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads the text of only the rows whose pair signature may hold a phrase, not every row holding its words', () => {
    const rows = new Rows();
    const text = new TextPostings(rows, false);
    // 2000 rows hold both words apart; 20 hold the phrase.
    for (let i = 0; i < 2020; i++)
      rows.add(
        eventOf(i + 1, i < 2000 ? `night of rock ${i}, then jazz at ${i % 7}` : `a late jazz night ${i}`),
      );
    text.indexWords(rows.used);
    const read = vi.spyOn(rows, 'textOf');
    expect(text.rowsContaining('jazz night').length).toBe(20);
    expect(read.mock.calls.length).toBeLessThan(200);
  });
});
