// The byte column gives back each row's string, across slabs, and compares a string with it without decoding it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteColumn } from './bytes.ts';

describe('ByteColumn', () => {
  it('gives back what each row holds, across slabs and growth, and says which strings it equals', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 80 }), (strings) => {
        // Slabs of 64 bytes: most rows start a new one, and a long row has one of its own.
        const c = new ByteColumn(64);
        const copy = new ByteColumn(64);
        const held = strings.map((s) => Buffer.from(s, 'utf8').toString('utf8'));
        for (const [r, s] of strings.entries()) {
          if (r % 16 === 0) {
            c.grow(r + 16);
            copy.grow(r + 16);
          }
          c.put(r, s);
          copy.putBytes(r, c.slab(r), c.start(r), c.start(r) + c.length(r));
        }
        for (const [r, s] of held.entries()) {
          expect(c.string(r)).toBe(s);
          expect(copy.view(r).equals(Buffer.from(s, 'utf8'))).toBe(true);
          expect(c.equals(r, s)).toBe(true);
          expect(c.equals(r, `${s}x`)).toBe(false);
          if (s !== '') expect(c.equals(r, s.slice(1))).toBe(s.slice(1) === s);
        }
      }),
      { numRuns: 40 },
    );
  });
});
