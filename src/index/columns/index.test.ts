// The columns' own promises apart from query answers: order, change detection, reads undisturbed by changes.
//
// The answers are held against the reference query through EventIndex, in src/index/event-index.oracle.test.ts.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { change, event, events, query, STATUSES, wall } from '../arbitraries.ts';
import type { EventFacets } from '../facets.ts';
import { byStart, type IndexQuery, queryIndex } from '../query.ts';
import { EventColumns } from './index.ts';

describe('EventColumns', () => {
  it('keeps its order through many changes to the same events (block splits, removals)', () => {
    const columns = new EventColumns({ blockSize: 16 });
    const held = new Map<number, EventFacets>();
    const rnd = fc.sample(fc.tuple(fc.integer({ min: 1, max: 3000 }), wall, fc.boolean()), {
      numRuns: 20_000,
      seed: 7,
    });
    const searched: IndexQuery = { statuses: ['publish'], page: 2, perPage: 7, search: 'jazz -rock' };
    for (const [i, [id, start, remove]] of rnd.entries()) {
      // The same search now and then, while the rows grow past their capacity.
      if (i % 1000 === 0) expect(columns.query(searched)).toEqual(queryIndex(held.values(), searched));
      if (remove && id % 3 === 0) {
        columns.delete(id);
        held.delete(id);
        continue;
      }
      const f = fc.sample(event(id), { numRuns: 1, seed: id })[0];
      const g = { ...f, start, hidden: false, status: 'publish' };
      columns.set(g);
      held.set(id, g);
    }
    const q: IndexQuery = {
      statuses: ['publish'],
      page: 3,
      perPage: 50,
      dates: { startGte: '2025-02-02 00:00:00' },
    };
    expect(columns.query(q)).toEqual(queryIndex(held.values(), q));
    expect(columns.query({ statuses: ['publish'], page: 1, perPage: 5000 })).toEqual(
      queryIndex(held.values(), { statuses: ['publish'], page: 1, perPage: 5000 }),
    );
    expect(columns.dead).toBe(
      20_000 - rnd.filter(([id, , remove]) => remove && id % 3 === 0).length - held.size,
    );
  });

  it('answers an event’s modified stamp, excerpt flag and venue as its record does, without building it', () => {
    fc.assert(
      fc.property(events, fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 10 }), (list, removed) => {
        const columns = new EventColumns();
        for (const f of list) columns.set(f);
        for (const id of removed) columns.delete(id);
        for (let id = 0; id <= 61; id++) {
          const r = columns.get(id);
          expect(columns.modifiedOf(id)).toBe(r?.modifiedGmt);
          expect(columns.hasExcerptOf(id)).toBe(r?.hasExcerpt);
          expect(columns.venueOf(id)).toBe(r?.venue ?? 0);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('posts every word in the background with nothing else to wake the event loop', () => {
    // In a process of its own whose only work is the posting: it must end with every row's words posted.
    const at = (f: string) => JSON.stringify(fileURLToPath(new URL(f, import.meta.url)));
    const script = `Promise.all([import(${at('./index.ts')}), import(${at('../arbitraries.ts')}), import('fast-check')])
      .then(([{ EventColumns }, { event }, fc]) => {
        const columns = new EventColumns();
        for (let i = 1; i <= 6000; i++) columns.set(fc.default.sample(event(i), { numRuns: 1, seed: i })[0]);
        process.on('exit', () => process.stdout.write('left ' + columns.pendingWords));
      });`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    });
    expect(out).toBe('left 0');
  });

  it('says whether it already holds an event as given', () => {
    const columns = new EventColumns();
    const f = fc.sample(event(1), { numRuns: 1, seed: 3 })[0];
    columns.set(f);
    expect(columns.holds(f)).toBe(true);
    expect(columns.holds({ ...f, searchText: `${f.searchText} more` })).toBe(false);
    expect(columns.holds({ ...f, categories: [...f.categories, 99] })).toBe(false);
    expect(columns.holds({ ...f, id: 2 })).toBe(false);
  });

  it('reads out every event as it was when the read began, whatever changes meanwhile (a snapshot being saved)', () => {
    const columns = new EventColumns({ blockSize: 2 });
    const before = Array.from({ length: 30 }, (_, i) => fc.sample(event(i + 1), { numRuns: 1, seed: i })[0]);
    for (const f of before) columns.set(f);
    const read = columns.batches(4);
    const out = [...read.next().value];
    // Half the events change, a third go, new ones come, between two batches.
    for (const f of before.slice(0, 15))
      columns.set({ ...f, start: '2030-01-01 00:00:00', searchText: 'new' });
    for (let id = 16; id <= 25; id++) columns.delete(id);
    columns.set(fc.sample(event(99), { numRuns: 1, seed: 9 })[0]);
    for (const batch of read) out.push(...batch);
    const want = [...before].sort(byStart).map((f) => storedOf(f));
    expect(out).toEqual(want);
  });

  // The searches made ahead are single words: each, with the blocks after its first page counted whole.
  const wordQueries: IndexQuery[] = ['jazz', 'night', 'rock', 'roll', 'café', 'music', 'tap'].map(
    (search) => ({
      statuses: STATUSES,
      search,
      page: 1,
      perPage: 1,
    }),
  );

  it('answers every query after making the common searches ahead as it would without, with changes in between', async () => {
    await fc.assert(
      fc.asyncProperty(
        events,
        fc.array(change, { maxLength: 12 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(1, 3, 512),
        async (initial, changes, asks, blockSize) => {
          // A yield after every block, so changes and queries land between the warm-up's slices.
          const columns = new EventColumns({ background: false, blockSize, warmMs: 0 });
          const held = new Map<number, EventFacets>();
          for (const f of initial) {
            columns.set(f);
            held.set(f.id, f);
          }
          columns.indexWords(Number.POSITIVE_INFINITY);
          const warming = columns.warm();
          expect(columns.warming).toBe(true);
          for (const [i, c] of changes.entries()) {
            if ('remove' in c) {
              columns.delete(c.remove);
              held.delete(c.remove);
            } else {
              columns.set(c);
              held.set(c.id, c);
            }
            for (const q of [asks[i % asks.length], wordQueries[i % wordQueries.length]])
              expect(columns.query(q)).toEqual(queryIndex(held.values(), q));
            await new Promise((r) => setImmediate(r));
          }
          await warming;
          expect(columns.warming).toBe(false);
          for (const q of [...asks, ...wordQueries])
            expect(columns.query(q)).toEqual(queryIndex(held.values(), q));
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** What the columns store of an event. */
function storedOf(f: EventFacets) {
  const { title: _t, startUtc: _s, endUtc: _e, sticky: _k, allDay: _a, ...stored } = f;
  return stored;
}
