// The vocabulary's ids against a Map of the same words, looked up by bytes and by string.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Vocabulary } from './vocabulary.ts';

describe('Vocabulary', () => {
  it('gives each word the id a Map of words in order of first sight gives it, by bytes or by string', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { maxLength: 100 }), (words) => {
        const v = new Vocabulary();
        const map = new Map<string, number>();
        for (const w of words) {
          // Bytes inside a larger buffer, as a text's words are read.
          const bytes = Buffer.from(`<${w}>`, 'utf8');
          const to = bytes.length - 1;
          const id = v.idOf(bytes, 1, to);
          expect(id).toBe(map.get(Buffer.from(w, 'utf8').toString('utf8')) ?? -1);
          if (id === -1) map.set(Buffer.from(w, 'utf8').toString('utf8'), v.add(bytes, 1, to));
        }
        expect(v.size).toBe(map.size);
        for (const [w, id] of map) expect(v.idOfString(w)).toBe(id);
        expect(v.idOfString('\u0000never\u0000')).toBe(map.get('\u0000never\u0000') ?? -1);
      }),
      { numRuns: 30 },
    );
  });
});
