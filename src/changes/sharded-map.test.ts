import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ShardedMap } from './sharded-map.ts';

describe('ShardedMap', () => {
  it('holds what a Map of the same sets holds', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: 100_000 }), fc.string({ maxLength: 3 }))), (sets) => {
        const want = new Map<number, string>();
        const got = new ShardedMap<string>();
        for (const [id, v] of sets) {
          want.set(id, v);
          got.set(id, v);
        }
        expect(got.size).toBe(want.size);
        for (const [id, v] of want) {
          expect(got.has(id)).toBe(true);
          expect(got.get(id)).toBe(v);
        }
        expect(got.has(100_001)).toBe(false);
        expect([...got.keys()].sort((a, b) => a - b)).toEqual([...want.keys()].sort((a, b) => a - b));
        expect([...got.values()].sort()).toEqual([...want.values()].sort());
      }),
    );
  });

  it('fills many as the same sets one by one would, keeping a held value when asked to', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: 5_000 }), fc.nat())),
        fc.array(fc.tuple(fc.nat({ max: 5_000 }), fc.nat())),
        fc.boolean(),
        fc.integer({ min: 1, max: 50 }),
        async (before, entries, keep, slice) => {
          const want = new Map<number, number>(before);
          for (const [id, v] of entries) if (!keep || !want.has(id)) want.set(id, v);
          const got = new ShardedMap<number>();
          for (const [id, v] of before) got.set(id, v);
          await got.fill(entries, slice, keep);
          expect(got.size).toBe(want.size);
          for (const [id, v] of want) expect(got.get(id)).toBe(v);
        },
      ),
      { numRuns: 50 },
    );
  });
});
