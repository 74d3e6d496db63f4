// The event index's pacing and compaction: work done in slices between yields to the event loop, and the copy of the
// live rows into new columns while the old ones answer.

import { tick } from '../pace/turns.ts';
import type { EventColumns } from './columns/index.ts';
import { type IdTable, idSet } from './id-table.ts';
import type { IndexLogger } from './progress.ts';

/** Replaced rows tolerated before a compaction (and at least a quarter as many as live ones). */
export const COMPACT_MIN_DEAD = 4096;
/** Rows a compaction copies between two looks at the clock (250 took about as long as a whole slice). */
export const COMPACT_SLICE = 64;

/**
 * Longest run of work between two yields to the event loop while applying crawled posts or compacting. 1 ms (5, then
 * 2 before): the jobs' slices queued in one turn of the loop run back to back (a bulk poll's slice, the compaction's,
 * and the word posting: 5 + 5 + 4 + 4 ms of main-thread CPU in one turn at 100k events, 23 ms with a page's parse,
 * when they were 5 and 4 ms), and a turn may also hold a collection of 7–12 ms; a yield costs microseconds.
 */
export const SLICE_MS = 1;

/**
 * Calls `fn` on each item, yielding to the event loop every `ms` (a page of posts is tens of ms of work). `ownTurns`:
 * the slices also begin in a turn of their own and, when the last one took a third of `ms` or more, the caller's next
 * step waits for the next turn; without, the caller's work before and after (a list's index query, the bytes of what
 * was serialised) runs in the first and the last slice's tasks (a list's: 7.5 ms, bench:busy's task meter).
 */
export async function inSlices<T>(
  items: Iterable<T>,
  ms: number,
  fn: (item: T) => void,
  ownTurns = false,
): Promise<void> {
  if (ownTurns) await tick();
  let t0 = performance.now();
  for (const item of items) {
    fn(item);
    if (performance.now() - t0 >= ms) {
      await tick();
      t0 = performance.now();
    }
  }
  if (ownTurns && performance.now() - t0 >= ms / 3) await tick();
}

/**
 * The ids changed while a compaction copies rows: in the order they changed (`ids`, copied from `at` on), each once
 * until copied (`seen`). Typed tables, not a Set: a poll that changes every event of a large site would rehash a Set
 * of a million ids in one task as it doubled.
 */
export interface Touched {
  seen: IdTable;
  ids: number[];
  at: number;
}

/** The compaction under way, if any, and the ids changed since it began. */
export class Compactions {
  readonly #run: (touched: Touched) => Promise<void>;
  #current: { touched: Touched; done: Promise<void> } | null = null;

  constructor(run: (touched: Touched) => Promise<void>) {
    this.#run = run;
  }

  /** Starts a compaction unless one is under way; resolves when it is over. */
  start(): Promise<void> {
    if (!this.#current) {
      // Not sized for every event: at 1M, 24 MB allocated in the task of the change that started it. It grows a
      // slice at a time as ids are noted (src/index/id-table.ts).
      const touched: Touched = { seen: idSet(), ids: [], at: 0 };
      const done = this.#run(touched).finally(() => {
        this.#current = null;
      });
      this.#current = { touched, done };
    }
    return this.#current.done;
  }

  /** Notes that `id` changed, for the compaction under way to copy it again; false when none is. */
  note(id: number): boolean {
    if (!this.#current) return false;
    const t = this.#current.touched;
    if (!t.seen.has(id)) {
      t.seen.set(id, 1);
      t.ids.push(id);
    }
    return true;
  }
}

/**
 * Copies the live rows of `from` into `next` (the compaction), then lets `next` take over; `from` keeps posting its
 * words unless it did. A failure is logged (the next change starts another compaction), never thrown.
 */
export async function compactInto(
  from: EventColumns,
  next: EventColumns,
  touched: Touched,
  pace: { compactRows: number; compactMs: number },
  current: () => boolean,
  takeOver: () => void,
  logger: IndexLogger,
): Promise<void> {
  // The rows added meanwhile are posted once, in `next`, when copied there (not here as well).
  from.retireWords(true);
  let tookOver = false;
  try {
    await copyLive(from, next, touched, pace, current, () => {
      takeOver();
      tookOver = true;
      next.warmWhenPosted();
    });
  } catch (err) {
    logger.warn({ err: String(err) }, 'Event index compaction abandoned; the next change starts another');
  } finally {
    if (!tookOver) from.retireWords(false);
  }
}

/**
 * Copies the live rows of `from` into `next`, a slice a tick, then the rows of the events changed meanwhile
 * (`touched`), and calls `takeOver` in the same tick as the last copy. Resolves to false, without taking over, when
 * `current()` says `from` stopped being the index's columns while it yielded.
 */
async function copyLive(
  from: EventColumns,
  next: EventColumns,
  touched: Touched,
  pace: { compactRows: number; compactMs: number },
  current: () => boolean,
  takeOver: () => void,
): Promise<boolean> {
  const { compactRows: slice, compactMs: ms } = pace;
  let t0 = performance.now();
  const pause = async () => {
    if (performance.now() - t0 < ms) return true;
    await tick();
    t0 = performance.now();
    return current();
  };
  // Room for every row first, a step a tick (the new columns and tables are ~200 MB at 1M events).
  for (const step of next.reserving(from.size)) {
    step();
    t0 = 0;
    if (!(await pause())) return false;
  }
  // Rows are copied as they are (no event is decoded): a row never changes, and the rows of events changed
  // meanwhile are copied again at the end. They are walked in order a piece at a time from the last one copied, not
  // from a copy of the whole order (4 MB at 1M events, made in the task of the change that started the compaction):
  // a row the walk meets that was added since the compaction began is an event changed meanwhile (`touched`).
  const piece = new Int32Array(slice);
  for (let n = from.rowsAfter(-1, piece); n > 0; n = from.rowsAfter(piece[n - 1], piece)) {
    for (let k = 0; k < n; k++) if (!touched.seen.has(from.idAt(piece[k]))) next.copy(from, piece[k], true);
    if (!(await pause())) return false;
  }
  // Ids are noted once each (`seen`) and copied in the order they changed; one changed again after its copy is
  // noted again.
  while (touched.at < touched.ids.length) {
    const end = Math.min(touched.ids.length, touched.at + slice);
    for (; touched.at < end; touched.at++) {
      const id = touched.ids[touched.at];
      touched.seen.delete(id);
      const r = from.rowOf(id);
      if (r !== undefined) next.copy(from, r);
      else next.delete(id);
    }
    if (touched.at < touched.ids.length && !(await pause())) return false;
  }
  takeOver();
  return true;
}
