// Which in-process answers a write softly invalidated (src/cache/soft.ts), and when their previous answer may still be
// served: inside the soft window (CACHE_SOFT_STALE_MS) while one refill runs, and past it, up to a bound, while that
// refill is still running or waits its turn, so readers never wait on a busy WordPress (issue 33).

/** A key whose L1 entry was softly invalidated: since when, and the invalidation's sequence number. */
export interface SoftMark {
  since: number;
  seq: number;
}

/** How long past a soft invalidation a previous answer may still be served while its refill is slow. */
export const SOFT_BOUND_MS = 10_000;
/** Soft refills running at once in one instance: the others keep their previous answer meanwhile (spread, not a burst). */
export const SOFT_REFILLS = 2;

export class SoftMarks {
  readonly #marks = new Map<string, SoftMark>();
  /** Keys whose soft refill runs now. */
  readonly #refilling = new Set<string>();
  readonly #windowMs: number;
  readonly #boundMs: number;
  /** Answers served past the soft window because the refill was slow or waited its turn (a metric). */
  late = 0;

  constructor(windowMs: number, boundMs = SOFT_BOUND_MS) {
    this.#windowMs = windowMs;
    this.#boundMs = Math.max(windowMs, boundMs);
  }

  /** A soft window of 0 makes every drop hard. */
  get enabled(): boolean {
    return this.#windowMs > 0;
  }

  get size(): number {
    return this.#marks.size;
  }

  has(key: string): boolean {
    return this.#marks.has(key);
  }

  get(key: string): SoftMark | undefined {
    return this.#marks.get(key);
  }

  /** Marks `key`; the first mark's time stays (a second write inside the window does not stretch it). */
  mark(key: string, seq: number, now: number): void {
    this.#marks.set(key, { since: this.#marks.get(key)?.since ?? now, seq });
  }

  /** The key holds a refill that reflects every change before `since`, and not those after `seq`. */
  replace(key: string, mark: SoftMark): void {
    this.#marks.set(key, mark);
  }

  delete(key: string): void {
    this.#marks.delete(key);
  }

  clear(): void {
    this.#marks.clear();
  }

  /** The key was softly invalidated after a load that started at `seq`. */
  raced(key: string, seq: number): boolean {
    return (this.#marks.get(key)?.seq ?? 0) > seq;
  }

  /**
   * Whether the previous answer of a marked key may be served now: `fresh` inside the soft window; `late` past it,
   * within the bound, while its refill runs or the refills are all taken; `no`: the reader waits for a refill.
   */
  servable(key: string, now: number): 'fresh' | 'late' | 'no' {
    const m = this.#marks.get(key);
    if (!m) return 'no';
    const age = now - m.since;
    if (age < this.#windowMs) return 'fresh';
    if (age < this.#boundMs && (this.#refilling.has(key) || this.full)) return 'late';
    return 'no';
  }

  /** `servable`, for a reader that starts nothing: the key's refill already runs, or every refill slot is taken. */
  servableAsIs(key: string, now: number): 'fresh' | 'late' | 'no' {
    return this.#refilling.has(key) || this.full ? this.servable(key, now) : 'no';
  }

  /** Every refill slot is taken: a marked key keeps its previous answer without starting one. */
  get full(): boolean {
    return this.#refilling.size >= SOFT_REFILLS;
  }

  refilling(key: string): boolean {
    return this.#refilling.has(key);
  }

  /** A refill of `key` started; the returned function ends it. */
  started(key: string): () => void {
    this.#refilling.add(key);
    return () => this.#refilling.delete(key);
  }
}
