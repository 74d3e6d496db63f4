// Bytes kept beside an answer for as long as it lives (its gzip copy, its shaped forms), told to whoever counts them.
// Answers are keyed as objects: this module is below answer.ts, which tells it of each gzip it makes.
type Answer = object;
type Counter = (delta: number) => void;

/** Bytes each answer keeps beside its body now. */
const held = new WeakMap<Answer, number>();
/** Who counts them (the response cache's byte budget, for an answer it stores). */
const counters = new WeakMap<Answer, Counter>();

/**
 * Notes `delta` more bytes (fewer, when negative) kept beside `answer` by something that lives as long as it does,
 * and tells its counter. An answer's gzip (src/http/answer.ts) and its shaped forms (src/stages/shape.ts) are made
 * after the answer is stored, so its store counts them as they come.
 */
export function keptBeside(answer: Answer, delta: number): void {
  if (delta === 0) return;
  held.set(answer, (held.get(answer) ?? 0) + delta);
  counters.get(answer)?.(delta);
}

/** Bytes kept beside `answer` now. */
export const besideOf = (answer: Answer): number => held.get(answer) ?? 0;

/**
 * Tells `count` of the bytes kept beside `answer`: those kept already, on a later turn of the event loop (never from
 * inside the caller, which may be a cache in the middle of storing it), then each change as it happens. One counter
 * an answer: a later one replaces it.
 */
export function countBeside(answer: Answer, count: Counter): void {
  counters.set(answer, count);
  const now = held.get(answer) ?? 0;
  if (now !== 0) queueMicrotask(() => count(now));
}

/** Stops telling `count` (any counter, when not given) of `answer`'s bytes. */
export function uncount(answer: Answer, count?: Counter): void {
  if (count === undefined || counters.get(answer) === count) counters.delete(answer);
}
