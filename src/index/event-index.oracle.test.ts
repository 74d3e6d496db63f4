// EventIndex against the reference query (`queryIndex`): the same answers through changes and background compactions.
//
// Random events, rounds of random changes and random queries; compactions are started between rounds, changes are
// made while they copy, a tick at a time, and every query is asked again before and after they take over.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guard } from '../../test/slack.ts';
import {
  change,
  events,
  noClient,
  postOf,
  query,
  search,
  silent,
  tecWithParent as tec,
} from './arbitraries.ts';
import { EventIndex } from './event-index.ts';
import { type EventFacets, facetsOf } from './facets.ts';
import { byStart, type IndexQuery, queryIndex } from './query.ts';

const tick = () => new Promise((r) => setImmediate(r));

/**
 * A fixed seed, so every run sees the same inputs (the coverage checks at the end hold for it: unseeded, the share of
 * queries that find events fell under 0.2 in about one run of five); `ORACLE_SEED=random` explores new ones, and
 * fast-check prints the seed of any failure, which replays it.
 */
const SEED = process.env.ORACLE_SEED === 'random' ? undefined : Number(process.env.ORACLE_SEED ?? 20261126);

/** What the index stores of an event (what its snapshot holds). */
function storedOf(f: EventFacets) {
  const { title: _t, startUtc: _s, endUtc: _e, sticky: _k, allDay: _a, ...stored } = f;
  return stored;
}

/** A round: changes, then (maybe) a compaction, with changes made while it runs, `ticks` apart. */
const round = fc.record({
  changes: fc.array(change, { maxLength: 8 }),
  compaction: fc.option(
    fc.record({ during: fc.array(change, { maxLength: 8 }), ticks: fc.integer({ min: 1, max: 3 }) }),
    { freq: 2 },
  ),
});

/** Queries asked again after every change (what the index keeps per search must follow): many search. */
const queries = fc.array(
  fc.oneof(
    { weight: 2, arbitrary: query },
    { weight: 1, arbitrary: fc.tuple(query, search).map(([q, s]) => ({ ...q, search: s })) },
  ),
  { minLength: 1, maxLength: 5 },
);

describe('EventIndex against the reference query', () => {
  it('answers every query as the reference does, through rounds of changes and background compactions', {
    timeout: guard(120_000),
  }, async () => {
    let asked = 0;
    let found = 0;
    /** Changes made while a compaction was still copying, and all changes made after one began. */
    let midway = 0;
    let during = 0;
    await fc.assert(
      fc.asyncProperty(
        events,
        fc.array(round, { minLength: 1, maxLength: 4 }),
        queries,
        fc.record({
          blockSize: fc.constantFrom(1, 2, 3, 512),
          alwaysNarrow: fc.boolean(),
          compactRows: fc.constantFrom(1, 3, 250),
        }),
        async (initial, rounds, asks, { blockSize, alwaysNarrow, compactRows }) => {
          // Small blocks split often; small slices let changes in between every few rows a compaction copies.
          const index = new EventIndex({
            client: noClient,
            mapping: tec,
            language: 'en',
            logger: silent,
            tuning: { columns: { blockSize, alwaysNarrow }, compactRows, compactMs: 0 },
          });
          const held = new Map<number, EventFacets>();
          const load = index.restoring();
          const first = initial.map((g) => facetsOf(postOf(g), tec)).sort(byStart);
          load.add(first);
          load.finish(null, '2026-01-01T00:00:00.000Z');
          for (const f of first) held.set(f.id, f);

          const apply = (c: EventFacets | { remove: number }) => {
            if ('remove' in c) {
              index.remove(c.remove);
              held.delete(c.remove);
              return;
            }
            const f = facetsOf(postOf(c), tec);
            // The posts reach every facet the queries filter on.
            expect(f).toMatchObject({ ...storedOf(c), searchText: expect.any(String) });
            index.upsert(postOf(c));
            held.set(c.id, f);
          };
          const agree = (q: IndexQuery) => {
            const want = queryIndex(held.values(), q);
            expect(index.query(q)).toEqual(want);
            asked++;
            if (want.total > 0) found++;
          };

          for (const { changes, compaction } of rounds) {
            for (const c of changes) apply(c);
            asks.forEach(agree);
            if (!compaction) continue;
            let over = false;
            const done = index.compact().then(() => {
              over = true;
            });
            for (const c of compaction.during) {
              during++;
              if (!over) midway++;
              apply(c);
              for (let t = 0; t < compaction.ticks; t++) await tick();
              asks.forEach(agree);
            }
            await done;
            asks.forEach(agree);
            // It took over: the rows it dropped are gone; only changes made while it ran leave dead rows.
            expect(index.deadRows).toBeLessThanOrEqual(compaction.during.length);
          }

          expect(index.size).toBe(held.size);
          for (const f of held.values()) {
            const { searchText: _text, ...indexed } = storedOf(f);
            expect(index.get(f.id)).toEqual(indexed);
            expect(index.bySlug(f.slug)?.id).toBe(f.id);
          }
          const snapshot = index.snapshot();
          const saved = [...(snapshot?.batches(3) ?? [])].flat();
          expect(saved).toEqual([...held.values()].sort(byStart).map(storedOf));
        },
      ),
      { numRuns: 500, seed: SEED },
    );
    // Most changes made after a compaction began must reach it before it takes over.
    expect(midway / during).toBeGreaterThan(0.5);
    // The queries must find events often enough to test ordering and paging, not only agree on nothing.
    expect(found / asked).toBeGreaterThan(0.2);
  });
});
