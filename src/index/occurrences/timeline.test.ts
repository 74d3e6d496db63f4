// The timeline's running totals (./sums.ts) against a plain recount of its blocks' entries, through random inserts and
// removes (splits, emptied blocks) with queries in between, so totals made before a change are read after it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Timeline, type TimelineBlock } from './timeline.ts';

const RUNS = Number(process.env.RECURRENCE_RUNS ?? 200);

/** An insert (op 0), a remove of a held entry (op 1, `at` picks it), or a query of blocks [a, b) (op 2). */
const stepArb = fc.record({
  op: fc.constantFrom(0, 0, 0, 0, 1, 2),
  start: fc.integer({ min: 0, max: 60 }),
  slot: fc.integer({ min: 0, max: 11 }),
  at: fc.nat(),
  a: fc.nat(),
  b: fc.nat(),
  classes: fc.uniqueArray(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 4 }),
  set: fc.constantFrom(0, 1),
});

const recount = (blocks: TimelineBlock[], k1: number, k2: number, passes: (slot: number) => boolean) => {
  let n = 0;
  for (let k = k1; k < k2; k++) for (let i = 0; i < blocks[k]!.n; i++) if (passes(blocks[k]!.slots[i]!)) n++;
  return n;
};

describe('the timeline', () => {
  it('totals blocks by class and by set as a recount of their entries does, through inserts and removes', () => {
    fc.assert(
      fc.property(
        // Classes past the pool's first 16 now and then (it widens).
        fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 20 })), {
          minLength: 12,
          maxLength: 12,
        }),
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 11 })), { minLength: 2, maxLength: 2 }),
        fc.constantFrom(1, 2, 3, 8),
        fc.array(stepArb, { minLength: 40, maxLength: 300, size: 'max' }),
        (classOf, setSlots, block, steps) => {
          const tl = new Timeline({ classOf: (s) => classOf[s]!, durOf: (s) => s * 1000 }, block);
          const held: [number, number][] = [];
          // Two sets of slots, as a list's selection is: an object, its counts per block, its totals.
          const sets = setSlots.map((slots) => ({ in: new Set(slots) }));
          const countIn = (set: { in: Set<number> }) => (blk: TimelineBlock) =>
            recount([blk], 0, 1, (slot) => set.in.has(slot));
          for (const s of steps) {
            if (s.op === 0) {
              if (held.some(([a, b]) => a === s.start && b === s.slot)) continue;
              tl.insert(s.start, s.slot);
              held.push([s.start, s.slot]);
            } else if (s.op === 1 && held.length > 0) {
              const [start, slot] = held.splice(s.at % held.length, 1)[0]!;
              expect(tl.remove(start, slot)).toBe(true);
            } else if (s.op === 2) {
              const n = tl.blocks.length;
              const k1 = n === 0 ? 0 : s.a % (n + 1);
              const k2 = k1 + (n === 0 ? 0 : s.b % (n - k1 + 1));
              expect(tl.sums.ofClasses(tl.counts, s.classes, k1, k2)).toBe(
                recount(tl.blocks, k1, k2, (slot) => s.classes.includes(classOf[slot]!)),
              );
              const set = sets[s.set]!;
              expect(tl.sums.ofSet(tl.blocks, set, countIn(set), k1, k2)).toBe(
                recount(tl.blocks, k1, k2, (slot) => set.in.has(slot)),
              );
            }
          }
          // Every block's total at the end (each range is a difference of two), and the blocks' order and sizes.
          const all = [...Array(21).keys()];
          for (let k = 0; k < tl.blocks.length; k++)
            expect(tl.sums.ofClasses(tl.counts, all, k, k + 1)).toBe(tl.blocks[k]!.n);
          // Each block's counts (a view of its place in the pool) as a recount, and the places in block order.
          for (const blk of tl.blocks)
            for (let c = 0; c <= 20; c++)
              expect(blk.counts[c] ?? 0).toBe(recount([blk], 0, 1, (slot) => classOf[slot] === c));
          expect(Array.from(tl.counts.order.subarray(0, tl.counts.blocks))).toEqual(
            tl.blocks.map((b) => b.place),
          );
          const entries = tl.blocks.flatMap((b) => Array.from(b.starts.subarray(0, b.n)));
          expect(entries).toEqual(held.map(([a]) => a).sort((a, b) => a - b));
          expect(tl.size).toBe(held.length);
        },
      ),
      // Shrinking 300 steps takes minutes: a failure found is reported as shrunk as it got in 30 s.
      { numRuns: RUNS, interruptAfterTimeLimit: 30_000 },
    );
  });

  it('finds the end of a run of blocks whose last start is at most a key', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 500 }), { maxLength: 80 }),
        fc.integer({ min: -5, max: 505 }),
        fc.nat(),
        (starts, key, from) => {
          const tl = new Timeline({ classOf: () => 0, durOf: () => 0 }, 2);
          for (const s of starts) tl.insert(s, 0);
          const k = tl.blocks.length === 0 ? 0 : from % tl.blocks.length;
          let want = k;
          while (want < tl.blocks.length && tl.blocks[want]!.starts[tl.blocks[want]!.n - 1]! <= key) want++;
          expect(tl.endOfRun(k, key)).toBe(want);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
