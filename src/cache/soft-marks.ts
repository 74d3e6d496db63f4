// Which in-process answers a write softly invalidated (src/cache/soft.ts), and when their previous answer may still be
// served: inside the soft window (CACHE_SOFT_STALE_MS) while one refill runs, and past it, up to a bound, while that
// refill is still running or waits its turn, and for a key readers have been served softly (its refill ended too late,
// or raced another write, or waited for a slot), so readers never wait on a busy WordPress (issue 33).

/**
 * A key whose L1 entry was softly invalidated: since when, the invalidation's sequence number, and whether its
 * previous answer has been served since (a key readers want: past the window, the next reader starts its refill and
 * keeps the previous answer rather than waiting for it).
 */
export interface SoftMark {
  since: number;
  seq: number;
  read?: boolean;
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
    const m = this.#marks.get(key);
    this.#marks.set(key, { since: m?.since ?? now, seq, read: m?.read });
  }

  /** The key's previous answer was served. */
  read(key: string): void {
    const m = this.#marks.get(key);
    if (m) m.read = true;
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
   * within the bound, while its refill runs or the refills are all taken, or (the reader then starts the refill) when
   * it has been served since its mark; `no`: the reader waits for a refill. So only a key nobody read during its
   * window, or one past the bound, makes a reader wait: not one whose refill ended after the window having raced a
   * later write, nor one that waited for a refill slot until after it.
   */
  servable(key: string, now: number): 'fresh' | 'late' | 'no' {
    const m = this.#marks.get(key);
    if (!m) return 'no';
    const age = now - m.since;
    if (age < this.#windowMs) return 'fresh';
    if (age < this.#boundMs && (m.read || this.#refilling.has(key) || this.full)) return 'late';
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
