// The index's columns alone (no EventIndex, no upstream), for this tree and other checkouts named on the command line,
// side by side in alternating rounds in one process, so a loaded machine slows every tree alike:
//   git worktree add ../before <commit> && node bench/columns.ts ../before
// Prints the median ms of each step (loading N events in order, posting their words, queries of bench/index.ts's
// kinds, changes, reading every row back, change detection) per tree. Env: N (100000), ROUNDS (6), RAW (print each
// round's times). Run with --expose-gc, so each tree starts on a collected heap.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { facetsOf } from '../src/index/facets.ts';
import { byStart, type IndexQuery } from '../src/index/query.ts';
import { mappingSchema } from '../src/mapping/schema.ts';
import { median } from './lib.ts';
import { calendarDay, syntheticPosts } from './synthetic.ts';

/** What the benchmark calls on a tree's columns (its API before and after src/index/columns/ was a folder). */
interface Columns {
  reserve(rows: number): void;
  set(f: unknown, inOrder?: boolean): void;
  indexWords(rows: number): number;
  query(q: IndexQuery): unknown;
  batches(n: number): Iterable<unknown[]>;
  holds(f: unknown): boolean;
}

const N = Number(process.env.N ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const mapping = mappingSchema.parse(
  JSON.parse(readFileSync(new URL('../mappings/tec.json', import.meta.url), 'utf8')),
);
const facets = [...syntheticPosts(N)].map((p) => facetsOf(p, mapping)).sort(byStart);
const changes = [...syntheticPosts(20_000, 5)].map((p, i) => ({
  ...facetsOf(p, mapping),
  id: 1 + ((i * 7919) % N),
}));

async function columnsOf(root: string): Promise<() => Columns> {
  const folder = `${root}/src/index/columns/index.ts`;
  const { EventColumns } = await import(existsSync(folder) ? folder : `${root}/src/index/columns.ts`);
  // As EventIndex makes them: before the folder, the columns had their own compaction, which it turned off.
  return () => new EventColumns({ minDead: Number.POSITIVE_INFINITY });
}

const ANON = { statuses: ['publish'], page: 1, perPage: 10 };
const queries: IndexQuery[] = [];
for (let i = 0; i < 400; i++) {
  const from = { startGte: calendarDay(365) };
  queries.push(
    { ...ANON, dates: { startGte: calendarDay(365 + (i % 7)), endLte: calendarDay(365 + 730) } },
    { ...ANON, dates: { startGte: calendarDay(i % 900), endLte: calendarDay((i % 900) + 30) } },
    { ...ANON, search: ['music', 'night', 'live'][i % 3], dates: from },
    { ...ANON, search: i % 2 ? 'kalo' : '"music night"', dates: from },
    { ...ANON, categories: [1 + (i % 30)], venue: [1000 + (i % 500)], dates: from },
    { ...ANON, page: 50, statuses: ['publish', 'future', 'draft', 'pending', 'private'], dates: from },
  );
}

function measure(make: () => Columns, note: (step: string, ms: number) => void): void {
  const c = make();
  const step = (name: string, fn: () => void) => {
    const t0 = performance.now();
    fn();
    note(name, performance.now() - t0);
  };
  step(`load ${N} in order`, () => {
    c.reserve(N);
    for (const f of facets) c.set(f, true);
  });
  step('post their words', () => c.indexWords(Number.POSITIVE_INFINITY));
  const ask = () => {
    for (const q of queries) c.query(q);
  };
  step(`${queries.length} queries, first time`, ask);
  step(`${queries.length} queries, again`, ask);
  step(`${changes.length} changes, a list query after each`, () => {
    for (const f of changes) {
      c.set(f);
      c.query(queries[0]);
    }
  });
  step(`${queries.length} queries after the changes`, ask);
  step('read every row back (batches of 500)', () => {
    let rows = 0;
    for (const batch of c.batches(500)) rows += batch.length;
    if (rows !== N) throw new Error(`read ${rows} rows, not ${N}`);
  });
  step(`holds × ${N}`, () => {
    for (const f of facets) c.holds(f);
  });
}

const roots = [resolve('.'), ...process.argv.slice(2).map((p) => resolve(p))];
const makers = await Promise.all(roots.map(columnsOf));
const times = roots.map(() => new Map<string, number[]>());
for (let round = 0; round < ROUNDS; round++) {
  // Alternating which tree goes first, so neither always runs on a warmer (or more loaded) machine.
  const order = round % 2 ? [...makers.keys()].reverse() : [...makers.keys()];
  for (const t of order) {
    // The previous tree's columns are garbage now: collected here, not during the next tree's steps.
    (globalThis as { gc?: () => void }).gc?.();
    measure(makers[t], (step, ms) => times[t].set(step, [...(times[t].get(step) ?? []), ms]));
  }
}
const lines = [`| median ms, ${ROUNDS} rounds | ${roots.map((r) => r.split('/').at(-1)).join(' | ')} |`];
lines.push(`|---|${roots.map(() => '---').join('|')}|`);
for (const step of times[0].keys())
  lines.push(`| ${step} | ${times.map((m) => median(m.get(step) ?? []).toFixed(1)).join(' | ')} |`);
if (process.env.RAW)
  for (const [t, m] of times.entries())
    lines.push(
      `${roots[t]}: ${JSON.stringify(Object.fromEntries([...m].map(([k, v]) => [k, v.map(Math.round)])))}`,
    );
process.stdout.write(`${lines.join('\n')}\n`);
