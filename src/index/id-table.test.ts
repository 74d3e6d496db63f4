// IdTable against a Map: any sequence of sets, deletes and reserves leaves the same entries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdTable, SlugTable, slugHash } from './id-table.ts';

// Operations on 40 ids drawn at random over the whole range (they collide in the table as real ids do).
const op = fc.oneof(
  fc.tuple(fc.constant('set' as const), fc.nat(39), fc.integer()),
  fc.tuple(fc.constant('delete' as const), fc.nat(39), fc.constant(0)),
  fc.tuple(fc.constant('reserve' as const), fc.nat(100), fc.constant(0)),
);
const ids = fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { minLength: 40, maxLength: 40 });

describe('IdTable', () => {
  it('holds what a Map holds after any sets, deletes and reserves, with resizes under way or not', () => {
    fc.assert(
      // `atOnce` 0: every resize moves the entries a few slots a set, so sets, deletes and reserves meet it under way.
      fc.property(
        ids,
        fc.array(op, { maxLength: 300 }),
        fc.nat(8),
        fc.boolean(),
        fc.boolean(),
        (pool, ops, capacity, slow, int) => {
          const table = new IdTable(capacity, int ? Int32Array : Float64Array, slow ? 0 : undefined);
          const map = new Map<number, number>();
          for (const [kind, at, value] of ops) {
            const key = pool[at];
            if (kind === 'set') {
              table.set(key, value);
              map.set(key, value);
            } else if (kind === 'delete') expect(table.delete(key)).toBe(map.delete(key));
            else table.reserve(at);
            expect(table.size).toBe(map.size);
          }
          for (const key of pool) expect(table.get(key)).toBe(map.get(key));
          expect([...table.keys()].sort((a, b) => a - b)).toEqual([...map.keys()].sort((a, b) => a - b));
        },
      ),
      { numRuns: Number(process.env.ID_TABLE_RUNS ?? 500) },
    );
  });

  it('keeps a key in one table when setting it ends a resize and starts the one a reserve asked for', () => {
    // fast-check's counterexample: the second set's move ends the resize to 32 slots, which starts the one to 64
    // that the second reserve asked for; the key's table became the old one, and the key was put in the new one too.
    const table = new IdTable(0, Float64Array, 0);
    table.reserve(9);
    table.reserve(17);
    table.set(1234, 1);
    table.set(1234, 2);
    expect(table.size).toBe(1);
    expect(table.get(1234)).toBe(2);
    // Once every old slot is moved, the key's old value must not come back over the new one.
    for (let id = 1; id <= 40; id++) table.set(10_000 + id, id);
    expect(table.get(1234)).toBe(2);
    expect(table.size).toBe(41);
    expect([...table.keys()].filter((k) => k === 1234)).toHaveLength(1);
  });

  it('finds every entry of a run of colliding ids after any one of them is deleted', () => {
    // Ids that share their home slot in a table of 16 (the hash's top 4 bits), then one whose home is the next slot.
    const home = (id: number) => Math.imul(id, 0x9e3779b1) >>> 28;
    const same: number[] = [];
    for (let id = 1; same.length < 3; id++) if (home(id) === 5) same.push(id);
    let next = 1;
    while (home(next) !== 6) next++;
    for (let gone = 0; gone < 4; gone++) {
      const ids = [...same, next];
      const table = new IdTable(6);
      for (const id of ids) table.set(id, id * 10);
      table.delete(ids[gone]);
      for (const id of ids) expect(table.get(id)).toBe(id === ids[gone] ? undefined : id * 10);
      expect(table.size).toBe(3);
    }
  });

  it('keeps large ids apart and refuses what is not a post id', () => {
    const table = new IdTable();
    for (const id of [1, 2 ** 31 - 1, 2 ** 20, 2 ** 20 + 1]) table.set(id, id / 2);
    expect(table.get(2 ** 31 - 1)).toBe((2 ** 31 - 1) / 2);
    expect(table.get(2 ** 20 + 1)).toBe((2 ** 20 + 1) / 2);
    expect(table.get(0)).toBeUndefined();
    expect(table.has(-3)).toBe(false);
    expect(() => table.set(0, 1)).toThrow(RangeError);
    expect(() => table.set(1.5, 1)).toThrow(RangeError);
  });

  it('keeps 32-bit integer values in half the bytes, and refuses any other value there', () => {
    const wide = new IdTable(1000);
    const narrow = new IdTable(1000, Int32Array);
    expect(narrow.bytes * 3).toBe(wide.bytes * 2);
    for (const v of [0, -1, 2 ** 31 - 1, -(2 ** 31)]) {
      narrow.set(7, v);
      expect(narrow.get(7)).toBe(v);
    }
    for (const v of [1.5, 2 ** 31, Number.NaN]) expect(() => narrow.set(8, v)).toThrow(RangeError);
    expect(narrow.has(8)).toBe(false);
    wide.set(8, 2 ** 40 + 0.5);
    expect(wide.get(8)).toBe(2 ** 40 + 0.5);
  });
});

describe('SlugTable', () => {
  /** Two slugs with the same hash, found by search (31 bits: a collision within a few hundred thousand). */
  function collision(): [string, string] {
    const seen = new Map<number, string>();
    for (let i = 0; ; i++) {
      const slug = `event-${i}`;
      const other = seen.get(slugHash(slug));
      if (other !== undefined) return [other, slug];
      seen.set(slugHash(slug), slug);
    }
  }

  it('answers as a Map of slugs does, colliding hashes included', () => {
    const [a, b] = collision();
    expect(slugHash(a)).toBe(slugHash(b));
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.boolean(), fc.constantFrom(a, b, 'jazz', 'rock'), fc.integer({ min: 1, max: 6 })),
          {
            maxLength: 60,
          },
        ),
        (ops) => {
          // The holder's view: each id's current slug (as EventColumns keeps it), and the Map it must agree with.
          const slugs = new Map<number, string>();
          const table = new SlugTable((id) => slugs.get(id));
          const map = new Map<string, number>();
          const unset = (id: number) => {
            const old = slugs.get(id);
            if (old === undefined) return;
            table.delete(old, id);
            if (map.get(old) === id) map.delete(old);
            slugs.delete(id);
          };
          for (const [remove, slug, id] of ops) {
            unset(id);
            if (remove) continue;
            slugs.set(id, slug);
            table.set(slug, id);
            map.set(slug, id);
          }
          for (const slug of [a, b, 'jazz', 'rock']) expect(table.get(slug)).toBe(map.get(slug));
        },
      ),
      { numRuns: 500 },
    );
  });
});
