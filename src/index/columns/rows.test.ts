// The rows' columns give back every row as written, live or dead, while they grow a slice at a time.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALIVE, Rows, type StoredEvent } from './rows.ts';

// A growth's new columns are not zeroed (growth.ts `unzeroed`): here their memory comes filled with junk, so a read of
// an entry nobody wrote shows (an ALIVE bit, an id, an offset).
beforeAll(() => {
  const junk = Buffer.allocUnsafeSlow.bind(Buffer);
  vi.spyOn(Buffer, 'allocUnsafeSlow').mockImplementation((n) => junk(n).fill(0xa5));
});
afterAll(() => vi.restoreAllMocks());

/** Event `id`'s version `v`: its values and text vary in length, so that `vals` and the text grow too. */
const version = (id: number, v: number): StoredEvent => ({
  id,
  status: ['publish', 'draft', 'future'][v % 3],
  slug: `e${id}-${v}`,
  start: `2026-0${1 + (v % 9)}-1${v % 10} 10:00:00`,
  end: v % 7 === 0 ? '' : `2026-0${1 + ((v + id) % 9)}-2${v % 10} 09:30:00`,
  categories: Array.from({ length: v % 4 }, (_, i) => i + 1),
  tags: Array.from({ length: (v + id) % 5 }, (_, i) => 10 + i),
  venue: v % 3 === 0 ? null : v,
  organizers: Array.from({ length: v % 2 }, () => id),
  featured: v % 2 === 0,
  hidden: v % 5 === 0,
  parent: 0,
  protected: false,
  author: 1 + (v % 3),
  date: '2025-12-01 08:00:00',
  modifiedGmt: `2026-01-01 00:00:${String(v % 60).padStart(2, '0')}`,
  hasExcerpt: v % 3 === 1,
  searchText: `event ${id} version ${v} `.repeat(1 + (v % 4)),
});

const { searchText: _, ...indexed } = version(1, 1);
const recordOf = (e: StoredEvent): typeof indexed => {
  const { searchText: _, ...r } = e;
  return r;
};

describe('Rows', () => {
  it('answers every row as written while rows are added and killed during a growth (its columns allocated one at a time), and copied from one that grows', () => {
    // Sets (a new row, the old one killed), removals and reservations on 1000 ids; growing a slice of 40 rows at a
    // time from the first growth, growths are under way throughout.
    const op = fc.tuple(fc.nat(19), fc.nat(999), fc.nat(59));
    fc.assert(
      fc.property(fc.array(op, { minLength: 1500, maxLength: 3000 }), (ops) => {
        // New columns allocated one at a time too (one per slice due, or per step of a reservation).
        const rows = new Rows({ atOnce: 0, slice: 40, allocateAtOnce: 0 });
        const copied = new Rows({ atOnce: 0, slice: 40, allocateAtOnce: 0 });
        /** A reservation's steps, run one per operation after it (as a crawl yields between them). */
        const steps: (() => void)[] = [];
        const live = new Map<number, StoredEvent>();
        /** What each row of `rows` was written with. */
        const written: StoredEvent[] = [];
        const check = () => {
          expect(rows.alive).toBe(live.size);
          expect(copied.alive).toBe(live.size);
          for (const [id, e] of live)
            for (const t of [rows, copied]) {
              const r = t.rowOf.get(id) as number;
              expect(t.record(r)).toEqual(recordOf(e));
              expect(t.textOf(r).toString()).toBe(e.searchText);
              expect(t.holds(r, e)).toBe(true);
              expect(t.meta[r] & ALIVE).toBe(ALIVE);
              expect(t.idOfSlug(e.slug)).toBe(id);
            }
          let alive = 0;
          for (let r = 0; r < rows.used; r++) {
            expect(rows.stored(r)).toEqual(written[r]);
            if (rows.meta[r] & ALIVE) alive++;
          }
          expect(alive).toBe(live.size);
          expect(rows.cap).toBeGreaterThanOrEqual(rows.used);
        };
        for (const [i, [kind, id0, v]] of ops.entries()) {
          const id = id0 + 1;
          const was = rows.rowOf.get(id);
          if (kind === 0) rows.reserve(v * 40);
          if (kind === 1) steps.push(...rows.reserving(v * 40));
          steps.shift()?.();
          if (kind <= 2) {
            if (was === undefined) continue;
            rows.kill(was, id);
            copied.kill(copied.rowOf.get(id) as number, id);
            live.delete(id);
          } else {
            if (was !== undefined) {
              rows.kill(was, id);
              copied.kill(copied.rowOf.get(id) as number, id);
            }
            const e = version(id, v + i);
            const r = rows.add(e);
            written[r] = e;
            copied.copy(rows, r);
            live.set(id, e);
          }
          if (i % 997 === 0) check();
        }
        check();
      }),
      // 8 runs: with the text read back through its tokens and the columns allocated one at a time, 12 took 71 s at load 16.
      { numRuns: 8 },
    );
  });
});
