// Search postings: words split as the term check splits them, and the rows of every word containing a term.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashOf } from './vocabulary.ts';
import { eachWordIn, piecesOf, WordPostings, wordsOf } from './words.ts';

const WORD = /[\p{L}\p{M}\p{N}_]+/gu;

describe('wordsOf', () => {
  it('finds the maximal runs of word characters, as the term pieces are found', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
        expect(wordsOf(s)).toEqual(new Set(s.match(WORD) ?? []));
      }),
      { numRuns: 2000 },
    );
    expect([...wordsOf("rock'n'roll, café naïve_1 x\u0301")]).toEqual([
      'rock',
      'n',
      'roll',
      'café',
      'naïve_1',
      'x\u0301',
    ]);
    expect(piecesOf('jazz')).toBeNull();
    expect(piecesOf('jazz night')).toEqual(['jazz', 'night']);
    expect(piecesOf('--')).toEqual([]);
  });
});

describe('eachWordIn', () => {
  it('finds in the UTF-8 bytes of a text the words wordsOf finds in the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (s) => {
        // Written as the index writes texts: lone surrogates become U+FFFD, in the bytes and when read back.
        const bytes = Buffer.from(` ${s} `, 'utf8');
        const found = new Set<string>();
        eachWordIn(bytes, 1, bytes.length - 1, (a, z, h) => {
          found.add(bytes.toString('utf8', a, z));
          // The hash made while reading is the vocabulary's hash of the word's bytes.
          expect(h).toBe(hashOf(bytes, a, z));
        });
        expect(found).toEqual(wordsOf(bytes.toString('utf8', 1, bytes.length - 1)));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('WordPostings', () => {
  it('posts a text by its bytes under the words wordsOf finds in it, once per row', () => {
    const p = new WordPostings();
    const texts = ['jazz night, jazz', 'café naïve_1 x\u0301 night', "rock'n'roll 🎷jazz"];
    for (const [row, t] of texts.entries()) {
      const b = Buffer.from(t, 'utf8');
      p.addText(row, b, 0, b.length);
    }
    const want = new WordPostings();
    for (const [row, t] of texts.entries()) want.add(row, wordsOf(t));
    for (const term of ['jazz', 'night', 'café', 'naïve_1', 'x\u0301', 'n', 'roll', 'ïve', '🎷'])
      expect([...p.rowsOf(term)], term).toEqual([...want.rowsOf(term)]);
    expect(p.vocabulary).toBe(want.vocabulary);
  });

  it('gives the rows of every word containing a term, ascending and once each', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.constantFrom('jazz', 'jazzy', 'azz', 'night', 'ni', 'knight'), { maxLength: 4 }),
          {
            maxLength: 30,
          },
        ),
        fc.constantFrom('jazz', 'az', 'a', 'nigh', 'igh', 'zzy', 'q', 'knight'),
        (docs, term) => {
          const p = new WordPostings();
          for (const [row, words] of docs.entries()) p.add(row, new Set(words));
          // Ask twice, with a row added between: the cached answer grows with the words added since.
          expect([...p.rowsOf(term)]).toEqual(
            docs.flatMap((words, row) => (words.some((w) => w.includes(term)) ? [row] : [])),
          );
          p.add(docs.length, new Set(['xjazzyknightx']));
          expect(p.rowsOf(term).at(-1)).toBe(
            'xjazzyknightx'.includes(term) ? docs.length : p.rowsOf(term).at(-1),
          );
          expect(p.rowsOf(term).includes(docs.length)).toBe('xjazzyknightx'.includes(term));
        },
      ),
    );
  });

  it('keeps rows far apart (gaps of several bytes) as they were posted, across the arrays a long list is held in', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            // Gaps up to 2^22 take 4 varint bytes; 80 of them stay a bit set of at most 40 MB.
            fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 2 ** 22 })),
            fc.subarray(['jazz', 'night', 'jazzy']),
          ),
          { maxLength: 80 },
        ),
        fc.constantFrom(8, 9, 16, 1 << 16),
        (posts, chunk) => {
          const p = new WordPostings(chunk);
          let row = -1;
          const want = new Map<string, number[]>([
            ['jazz', []],
            ['night', []],
          ]);
          for (const [gap, words] of posts) {
            row += gap;
            p.add(row, words);
            if (words.some((w) => w.includes('jazz'))) want.get('jazz')?.push(row);
            if (words.includes('night')) want.get('night')?.push(row);
          }
          expect([...p.rowsOf('jazz')]).toEqual(want.get('jazz'));
          expect([...p.rowsOf('night')]).toEqual(want.get('night'));
          // As bits too, a row of postings at a time (the pieces of `TextPostings.prepare`).
          const bits = new Uint32Array((Math.max(row, 0) >>> 5) + 1);
          for (const _ of p.rowBits('jazz', bits, row + 1, 1));
          // The set bits, word by word (a loop over every row took minutes on rows up to 80 × 2^26).
          const set: number[] = [];
          for (let w = 0; w < bits.length; w++)
            for (let v = bits[w]!; v !== 0; v &= v - 1) set.push(w * 32 + 31 - Math.clz32(v & -v));
          expect(set).toEqual([...new Set(want.get('jazz'))].sort((a, b) => a - b));
        },
      ),
    );
    const p = new WordPostings();
    p.add(5, ['jazz']);
    expect(() => p.add(5, ['jazz'])).toThrow(RangeError);
  });

  it('lists the words posted under at least so many rows, most posted first', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom('jazz', 'night', 'rock', 'café', 'a1', 'x_y'), { maxLength: 6 })),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 7 }),
        (rows, minRows, max) => {
          const postings = new WordPostings();
          const count = new Map<string, number>();
          for (const [r, words] of rows.entries()) {
            const text = Buffer.from(words.join(' '), 'utf8');
            postings.addText(r, text, 0, text.length);
            for (const w of new Set(words)) count.set(w, (count.get(w) ?? 0) + 1);
          }
          const got = postings.mostPosted(minRows, max);
          const want = [...count].filter(([, n]) => n >= minRows);
          expect(got.length).toBe(Math.min(max, want.length));
          for (const w of got) expect(count.get(w)).toBeGreaterThanOrEqual(minRows);
          // Most posted first, and none left out that is posted more than one kept.
          const counts = got.map((w) => count.get(w) ?? 0);
          expect(counts).toEqual([...counts].sort((a, b) => b - a));
          const least = Math.min(...counts);
          for (const [w, n] of want) if (n > least) expect(got).toContain(w);
        },
      ),
    );
  });
});
