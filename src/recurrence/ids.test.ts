import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identityOf, isOccurrenceId, occurrenceId } from './ids.ts';

const minute = 60_000;
const epoch = Date.UTC(2000, 0, 1);

describe('occurrence ids', () => {
  it('gives back the identity it was made from, for every series and minute in range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 26 - 1 }),
        fc.integer({ min: 0, max: 2 ** 26 - 1 }),
        (s, m) => {
          const id = occurrenceId({ seriesId: s, originalStartMs: epoch + m * minute });
          expect(id).toBeDefined();
          expect(Number.isSafeInteger(id)).toBe(true);
          expect(isOccurrenceId(id!)).toBe(true);
          expect(identityOf(id!)).toEqual({ seriesId: s, originalStartMs: epoch + m * minute });
        },
      ),
    );
  });

  it('never takes a post id for an occurrence', () => {
    for (const id of [1, 61, 1_000_000, 2 ** 40, 2 ** 52 - 1]) {
      expect(isOccurrenceId(id)).toBe(false);
      expect(identityOf(id)).toBeUndefined();
    }
  });

  it('refuses identities outside its limits', () => {
    expect(occurrenceId({ seriesId: 2 ** 26, originalStartMs: epoch })).toBeUndefined();
    expect(occurrenceId({ seriesId: 0, originalStartMs: epoch })).toBeUndefined();
    expect(occurrenceId({ seriesId: 5, originalStartMs: epoch - minute })).toBeUndefined();
    expect(occurrenceId({ seriesId: 5, originalStartMs: epoch + 30_000 })).toBeUndefined();
    expect(occurrenceId({ seriesId: 5, originalStartMs: epoch + 2 ** 26 * minute })).toBeUndefined();
  });

  it('is the documented formula', () => {
    const start = Date.UTC(2027, 0, 5, 0, 0);
    expect(occurrenceId({ seriesId: 61, originalStartMs: start })).toBe(
      2 ** 52 + 61 * 2 ** 26 + (start - epoch) / minute,
    );
  });
});
