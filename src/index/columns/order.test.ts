// A walk of the order a piece at a time (`rowsAfter`) meets rows in order, each once, while rows come and go between
// its pieces: what a compaction's copy relies on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ordered } from './order.ts';

describe('Ordered.rowsAfter', () => {
  it('walks every row held throughout once, in (start, id) order, with rows added and removed between its pieces', () => {
    const row = fc.tuple(fc.nat(20), fc.nat(30));
    // Between two pieces: add a row (start, id), or remove the row at some place of those held.
    const op = fc.oneof(
      row.map(([start, id]) => ({ add: [start, id] as const })),
      fc.nat().map((at) => ({ remove: at })),
    );
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 60 }),
        fc.array(fc.array(op, { maxLength: 4 }), { maxLength: 40 }),
        fc.constantFrom(1, 2, 3, 512),
        fc.constantFrom(1, 2, 5, 64),
        (initial, between, blockSize, piece) => {
          const cols = {
            start: new Float64Array(400),
            id: new Int32Array(400),
            end: new Float64Array(400),
            meta: new Uint16Array(400),
          };
          const order = new Ordered(cols, blockSize);
          const held = new Set<number>();
          let used = 0;
          const add = (start: number, id: number) => {
            const r = used++;
            cols.start[r] = start;
            // Ids are made unique per row, as an event has one live row.
            cols.id[r] = id * 1000 + r;
            order.insert(r);
            held.add(r);
          };
          for (const [start, id] of initial) add(start, id);
          const throughout = new Set(held);
          const met: number[] = [];
          const out = new Int32Array(piece);
          let round = 0;
          // Bounded, so that a walk that does not move on fails instead of hanging.
          for (let n = order.rowsAfter(-1, out); n > 0; n = order.rowsAfter(out[n - 1], out)) {
            met.push(...out.subarray(0, n));
            if (met.length > 1000) throw new Error('the walk does not end');
            for (const o of between[round++] ?? []) {
              if ('add' in o) add(o.add[0], o.add[1]);
              else if (held.size > 0) {
                const r = [...held][o.remove % held.size];
                order.remove(r);
                held.delete(r);
                throughout.delete(r);
              }
            }
          }
          const key = (r: number) => [cols.start[r], cols.id[r]];
          for (let i = 1; i < met.length; i++) {
            const [a, b] = [key(met[i - 1]), key(met[i])];
            expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])).toBe(true);
          }
          for (const r of throughout) expect(met).toContain(r);
        },
      ),
      { numRuns: 500 },
    );
  });
});
