// The finder answers exactly as Buffer#includes, for any needle and text, in any part of a buffer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BytesFinder } from './finder.ts';

describe('BytesFinder', () => {
  it('finds a needle in a range of a buffer exactly when Buffer#includes does', () => {
    // A small alphabet, so that needles are found often and almost-matches are many.
    const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', 'é', 'n', 'i'), maxLength: 60 });
    fc.assert(
      fc.property(text, text, fc.nat(10), fc.nat(10), (hay, needle, pre, post) => {
        const bytes = Buffer.from(`${'x'.repeat(pre)}${hay}${'y'.repeat(post)}`, 'utf8');
        const from = pre;
        const to = bytes.length - post;
        const n = Buffer.from(needle, 'utf8');
        expect(new BytesFinder(n).in(bytes, from, to)).toBe(bytes.subarray(from, to).includes(n));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a phrase at the start and the end of a row, never across its bounds', () => {
    const f = new BytesFinder(Buffer.from('music night'));
    const row = Buffer.from('xxmusic nightyy');
    expect(f.in(row, 2, 13)).toBe(true);
    expect(f.in(row, 3, 13)).toBe(false);
    expect(f.in(row, 2, 12)).toBe(false);
  });
});
