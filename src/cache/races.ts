// Which loads raced which drops: every drop gets a sequence number, and a load started at one number is checked
// against the drops of its tags after it, hard ones (the load is refused) and soft ones (it is kept only as a
// previous answer, src/cache/soft-marks.ts).

/** Tags remembered per kind of drop before the memory is cleared (every load running then counts as raced). */
const KEPT = 100_000;

class DropTimes {
  readonly #at = new Map<string, number>();
  #clearedAt = 0;

  note(tags: readonly string[], seq: number): void {
    if (this.#at.size > KEPT) this.clear(seq);
    for (const t of tags) this.#at.set(t, seq);
  }

  clear(seq: number): void {
    this.#at.clear();
    this.#clearedAt = seq;
  }

  after(tags: readonly string[], seq: number): boolean {
    if (seq < this.#clearedAt) return true;
    for (const t of tags) if ((this.#at.get(t) ?? 0) > seq) return true;
    return false;
  }
}

export class Races {
  #seq = 0;
  readonly #hard = new DropTimes();
  readonly #soft = new DropTimes();

  /** The number of the last drop: a load starting now takes it. */
  get seq(): number {
    return this.#seq;
  }

  /** A drop of `tags` (markers left out by the caller); answers its number. */
  drop(tags: readonly string[], soft: boolean): number {
    const seq = ++this.#seq;
    (soft ? this.#soft : this.#hard).note(tags, seq);
    return seq;
  }

  /** Everything dropped: every load running now counts as raced. */
  purge(): number {
    const seq = ++this.#seq;
    this.#hard.clear(seq);
    this.#soft.clear(seq);
    return seq;
  }

  /** A hard drop of one of `tags` came after the load that started at `seq`. */
  hard(tags: readonly string[], seq: number): boolean {
    return seq !== this.#seq && this.#hard.after(tags, seq);
  }

  /** A soft drop of one of `tags` came after the load that started at `seq`. */
  soft(tags: readonly string[], seq: number): boolean {
    return seq !== this.#seq && this.#soft.after(tags, seq);
  }
}
