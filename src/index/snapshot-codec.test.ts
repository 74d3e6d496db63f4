// The snapshot's row encoding: every stored event comes back as it went in; foreign bytes are refused.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventColumns } from './columns/index.ts';
import type { StoredEvent } from './columns/rows.ts';
import { decodeRuns, encodeRows, encodeRowsOf, fromVersion1, readRun } from './snapshot-codec.ts';

const decodeRows = (b: Buffer) => [...decodeRuns(b)].flat();

const wall = fc
  .date({ min: new Date('1970-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
const maybe = fc.oneof(
  wall,
  fc.constant(''),
  wall.map((w) => w.slice(0, 10)),
);
const id = fc.integer({ min: 1, max: 2 ** 31 - 1 });

const stored: fc.Arbitrary<StoredEvent> = fc.record({
  id,
  status: fc.constantFrom('publish', 'draft', 'tribe-ea-success'),
  slug: fc.string({ unit: 'grapheme', maxLength: 30 }),
  start: maybe,
  end: maybe,
  categories: fc.array(id, { maxLength: 5 }),
  tags: fc.array(id, { maxLength: 5 }),
  venue: fc.option(id, { nil: null }),
  organizers: fc.array(id, { maxLength: 5 }),
  featured: fc.boolean(),
  hidden: fc.boolean(),
  parent: fc.nat(),
  protected: fc.boolean(),
  author: fc.nat(),
  date: maybe,
  modifiedGmt: maybe,
  hasExcerpt: fc.boolean(),
  searchText: fc.string({ unit: 'grapheme', maxLength: 200 }),
});

describe('snapshot rows', () => {
  it('round-trip', () => {
    fc.assert(
      fc.property(fc.array(stored, { maxLength: 20 }), (rows) => {
        expect(decodeRows(encodeRows(rows))).toEqual(rows);
      }),
    );
  });

  it('are the same bytes read from the columns as encoded from the events they give back', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(stored, { selector: (r) => r.id, maxLength: 20 }),
        fc.nat(),
        (rows, kill) => {
          const columns = new EventColumns({ background: false });
          for (const r of rows) columns.set(r);
          // A replaced event's old row is dead: the runs read live rows only.
          if (rows.length > 0) columns.set({ ...rows[kill % rows.length], slug: 'again' });
          const events = [...columns.batches(7)];
          const runs = [...columns.runs(7)];
          expect(runs.map((r) => encodeRowsOf(r.rows, r.list))).toEqual(events.map(encodeRows));
        },
      ),
    );
  });

  it('read in place give the columns what the events decoded from the same bytes give them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(stored, { selector: (r) => r.id, maxLength: 20 }), (rows) => {
        const bytes = Buffer.concat([encodeRows(rows.slice(0, 7)), encodeRows(rows.slice(7))]);
        const decoded = new EventColumns({ background: false });
        for (const f of decodeRows(bytes)) decoded.set(f, true);
        const inPlace = new EventColumns({ background: false });
        for (let o = 0; o < bytes.length; ) o = readRun(bytes, o, (row) => inPlace.setBytes(row, true));
        expect([...inPlace.batches(5)]).toEqual([...decoded.batches(5)]);
        expect(inPlace.size).toBe(rows.length);
        for (const f of rows) if (f.slug) expect(inPlace.idOfSlug(f.slug)).toBe(decoded.idOfSlug(f.slug));
      }),
    );
  });

  it('refuse truncated or padded bytes', () => {
    const rows = fc.sample(stored, { numRuns: 5, seed: 1 });
    const bytes = encodeRows(rows);
    expect(() => decodeRows(bytes.subarray(0, bytes.length - 3))).toThrow(RangeError);
    expect(() => decodeRows(Buffer.concat([bytes, Buffer.from([0])]))).toThrow(RangeError);
    // Read in place: refused before the cut row is handed over.
    const seen: number[] = [];
    expect(() => readRun(bytes.subarray(0, bytes.length - 3), 0, (r) => seen.push(r.id))).toThrow(RangeError);
    expect(seen).toEqual(rows.slice(0, -1).map((r) => r.id));
  });

  it('read from a version-1 snapshot, keep only the title of a protected event, as version 2 stores it', () => {
    const [row] = fc.sample(stored, { numRuns: 1, seed: 2 });
    const text = 'locked night\nsecret excerpt\nsecret words';
    expect(fromVersion1({ ...row!, protected: true, searchText: text }).searchText).toBe('locked night');
    expect(fromVersion1({ ...row!, protected: false, searchText: text }).searchText).toBe(text);
  });
});
