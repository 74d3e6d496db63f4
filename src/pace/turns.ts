// One budget per turn of the event loop for all the work done in slices: the index's jobs, the change log's, a feed's
// reads, serialisation and rendering. Each job yields after its own slice (1–5 ms); when several ran at once, their
// slices queued in one turn ran back to back (a first cold feed's turn held the index's word posting, the change log's
// digests and the feed's own slices: 20–41 ms). A job that yields here waits in one queue, and each turn wakes the
// waiters in order only while the turn's work is under TURN_MS; the others keep their place for the next turn.
import { setImmediate } from 'node:timers';

/** The paced work one turn of the event loop may hold, all jobs together (ms). */
export const TURN_MS = 4;

interface Waiter {
  wake: () => void;
  /** Whether it keeps the process alive (a background job's does not). */
  ref: boolean;
}

const waiting: Waiter[] = [];
let pending: NodeJS.Immediate | null = null;
/** While a turn wakes its waiters: when it began; else null (work outside a turn keeps to its own slice alone). */
let turnStart: number | null = null;

/** Whether a job in a slice should yield now: its own slice is over, or the turn's budget is spent. */
export function sliceOver(sliceStart: number, sliceMs: number): boolean {
  const now = performance.now();
  return now - sliceStart >= sliceMs || (turnStart !== null && now - turnStart >= TURN_MS);
}

/**
 * Resolves in a later turn of the event loop, in the order called, once that turn has room. `ref: false`: the wait
 * alone does not keep the process alive (a background job's, as an unref'd timer).
 */
export function nextSlice(ref = true): Promise<void> {
  return new Promise((wake) => {
    waiting.push({ wake, ref });
    // During a turn, the turn schedules the next one as it ends.
    if (turnStart === null) schedule();
  });
}

/** The next turn, once: kept alive only while a waiter that keeps the process alive is queued. */
function schedule(): void {
  pending ??= setImmediate(runTurn);
  if (waiting.some((w) => w.ref)) pending.ref();
  else pending.unref();
}

async function runTurn(): Promise<void> {
  pending = null;
  const start = performance.now();
  turnStart = start;
  // Only those queued before this turn: a job that yields again during it waits for the next.
  let n = waiting.length;
  try {
    while (n-- > 0 && performance.now() - start < TURN_MS) {
      waiting.shift()?.wake();
      // The woken job runs (a microtask) until it yields again, waits for something else, or ends.
      await null;
    }
  } finally {
    turnStart = null;
    if (waiting.length) schedule();
  }
}
