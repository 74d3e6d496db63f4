// One budget per turn of the event loop for some of the work done in slices: a feed's rendering, a large upstream
// answer's parse, the tags of a long list, the change log's start-up. Each yielded after its own slice (1–5 ms); when
// several ran at once, their slices queued in one turn ran back to back (a feed's pages parsed four in a turn: 36 ms).
// Here a job that yields waits in one queue. Each turn begins with a mark, then one runner per waiter wakes the waiter
// at the head of the queue while the turn's work is under TURN_MS; a runner that finds the budget spent tries again
// next turn, and the waiter keeps its place. A waiter woken by its own immediate runs, all its microtasks included,
// before the next runner looks at the clock. The index's jobs and a feed's held reads and serialisation keep their
// own slices: paced here too, they showed no shorter stall side by side (the index's at 1M; the feed's, which took
// 10–20 % longer).
import { setImmediate } from 'node:timers';

/**
 * A timer apart. Asked for from a timer's callback (the steps of a start, each begun by the one before), it runs after
 * the requests waiting to be read. Asked for from a request's callback it runs in that same turn, before them, as an
 * immediate does, once its millisecond has passed (libuv polls, then runs the immediates, then the timers, in each
 * turn): `afterPoll` is for that case.
 */
export const afterWaiting = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** The immediates of this turn of the event loop, or of the next when asked for from one (see `afterPoll`). */
export const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * A later turn of the event loop than the requests waiting now, whatever phase it is asked from: two immediates.
 * libuv runs a turn's poll (requests read), then its immediates, then its timers; an immediate (or a timer of 0)
 * asked for from a request's callback runs in that same turn, before the loop polls again, so the second one does.
 * For a request's own long step, which the requests that arrived during its first would otherwise wait for too.
 */
export async function afterPoll(): Promise<void> {
  await tick();
  await tick();
}

/** The paced work one turn of the event loop may hold, all jobs together (ms). */
export const TURN_MS = 4;

const waiting: Array<() => void> = [];
/** While a turn's runners run: when its mark ran; else null (work elsewhere keeps to its own slice alone). */
let turnStart: number | null = null;
let marked = false;
/** Runners queued for the coming turn, and those of the current turn not run yet. */
let scheduled = 0;
let left = 0;

/** Whether a job in a slice should yield now: its own slice is over, or the turn's budget is spent. */
export function sliceOver(sliceStart: number, sliceMs: number): boolean {
  const now = performance.now();
  return now - sliceStart >= sliceMs || (turnStart !== null && now - turnStart >= TURN_MS);
}

/**
 * Resolves in a later turn of the event loop, in the order called, once that turn has room. Marks and runners are
 * ordinary (ref'd) immediates: an unref'd one runs only when something else wakes the loop, and a waiter with
 * nothing else to wake it waited for ever (the full suite's first run of this module timed out two tests so).
 */
export function nextSlice(): Promise<void> {
  return new Promise((wake) => {
    waiting.push(wake);
    runNextTurn();
  });
}

/** A runner in the next turn, after that turn's mark (immediates queued during a turn run in the next one). */
function runNextTurn(): void {
  if (!marked) {
    marked = true;
    setImmediate(mark);
  }
  scheduled++;
  setImmediate(run);
}

function mark(): void {
  marked = false;
  turnStart = performance.now();
  left = scheduled;
  scheduled = 0;
}

function run(): void {
  const last = --left <= 0;
  if (waiting.length) {
    if (turnStart !== null && performance.now() - turnStart >= TURN_MS) runNextTurn();
    else waiting.shift()?.();
  }
  // After the last runner's waiter has begun its slice (its first microtask): the turn is over, and work in the
  // loop's other phases keeps to its own slice.
  if (last)
    queueMicrotask(() => {
      turnStart = null;
    });
}
