// Bookkeeping of the response cache's tags: which in-process keys carry a tag, and which tags are held back.

/** tag → keys in L1, so an invalidation finds them without a scan. */
export class TagIndex {
  readonly #byTag = new Map<string, Set<string>>();

  add(key: string, tags: string[]): void {
    for (const t of tags) {
      const keys = this.#byTag.get(t);
      if (keys) keys.add(key);
      else this.#byTag.set(t, new Set([key]));
    }
  }

  remove(key: string, tags: string[]): void {
    // Emptied whole first (a purge of everything): each entry's dispose then costs nothing, however many tags it has.
    if (this.#byTag.size === 0) return;
    for (const t of tags) {
      const keys = this.#byTag.get(t);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.#byTag.delete(t);
    }
  }

  /** The keys carrying `tag`, keeping them (a soft drop: a later hard one must still find them). */
  keys(tag: string): string[] {
    return [...(this.#byTag.get(tag) ?? [])];
  }

  /** The keys carrying `tag`, forgetting the tag. */
  take(tag: string): string[] {
    const keys = [...(this.#byTag.get(tag) ?? [])];
    this.#byTag.delete(tag);
    return keys;
  }

  clear(): void {
    this.#byTag.clear();
  }
}

/** Tags whose answers must not be stored for now, counted so that overlapping holds release in any order. */
export class Holds {
  readonly #held = new Map<string, number>();

  has(tags: string[]): boolean {
    if (this.#held.size === 0) return false;
    for (const t of tags) if (this.#held.has(t)) return true;
    return false;
  }

  /** Holds the tags until the returned release is called (once; later calls do nothing), then calls `released`. */
  hold(tags: string[], released: (tags: string[]) => void): () => void {
    for (const t of tags) this.#held.set(t, (this.#held.get(t) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const t of tags) {
        const n = (this.#held.get(t) ?? 1) - 1;
        if (n > 0) this.#held.set(t, n);
        else this.#held.delete(t);
      }
      released(tags);
    };
  }
}
