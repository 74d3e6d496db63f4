// The event index's rows in typed columns, one per version of an event, and the one table of their flag bits.
//
// A change takes a new row and the old one dies, so a row never changes. Snapshots store the same flag bits.
import type { EventFacets } from '../facets.ts';
import { IdTable, SlugTable } from '../id-table.ts';
import { ByteColumn } from './bytes.ts';
import { ALLOCATE_AT_ONCE, AT_ONCE, type Column, Growth, growthDue, SLICE } from './growth.ts';
import { TextColumn } from './text.ts';
import { NO_DATE, wallKey, wallText } from './wall-clock.ts';

/** What the index keeps of an event and gives back: the facets lists filter on (dates as stored, `Y-m-d H:i:s`). */
export type IndexedEvent = Pick<
  EventFacets,
  | 'id'
  | 'status'
  | 'slug'
  | 'start'
  | 'end'
  | 'categories'
  | 'tags'
  | 'venue'
  | 'organizers'
  | 'featured'
  | 'hidden'
  | 'parent'
  | 'protected'
  | 'author'
  | 'date'
  | 'modifiedGmt'
  | 'hasExcerpt'
  | 'series'
  | 'override'
>;

/** An indexed event with its search text: what a row is built from, and what a snapshot holds. */
export type StoredEvent = IndexedEvent & Pick<EventFacets, 'searchText'>;

/**
 * An event's yes/no facets as bits: the low bits of a row's `meta`, and a snapshot row's flags byte (stored bytes:
 * a bit never changes meaning).
 */
export const FLAG = {
  hidden: 1,
  featured: 2,
  protected: 4,
  hasExcerpt: 8,
  series: 16,
  override: 32,
} as const;
/** The `meta` bit of a row that holds its event's current version (a replaced or removed event's row loses it). */
export const ALIVE = 64;
/** `meta` is the status code above this many bits of flags. */
export const FLAG_BITS = 7;

/**
 * A row read in place from bytes (a snapshot's, src/index/snapshot-codec.ts): its numbers (dates as their keys), and
 * where its slug, values and text are in `bytes`. A load fills one such object per row and builds no record.
 */
export interface RowBytes {
  bytes: Buffer;
  id: number;
  author: number;
  parent: number;
  /** 0 for none. */
  venue: number;
  start: number;
  end: number;
  date: number;
  modified: number;
  /** {@link FLAG} bits. */
  flags: number;
  status: string;
  slugAt: number;
  slugLen: number;
  /** Categories, tags and organizers: `catN`, `tagN`, `orgN` little-endian int32s from `catAt`, `tagAt`, `orgAt`. */
  catAt: number;
  catN: number;
  tagAt: number;
  tagN: number;
  orgAt: number;
  orgN: number;
  textAt: number;
  textLen: number;
}

/** The {@link FLAG} bits of an event. */
export const flagsOf = (f: Pick<IndexedEvent, keyof typeof FLAG>): number =>
  (f.hidden ? FLAG.hidden : 0) |
  (f.featured ? FLAG.featured : 0) |
  (f.protected ? FLAG.protected : 0) |
  (f.hasExcerpt ? FLAG.hasExcerpt : 0) |
  (f.series ? FLAG.series : 0) |
  (f.override ? FLAG.override : 0);

/** Where `meta` is among the columns a growth copies (see `Rows.#perRow`). */
const META = 3;

/**
 * The columns. Read directly by the order, the postings and the query plan (their hot loops take the arrays into
 * locals); arrays are replaced, not mutated in place, when they grow, so hold this object, not an array.
 */
export class Rows {
  /** Rows allocated, rows used, rows alive. */
  cap = 0;
  used = 0;
  alive = 0;
  start = new Float64Array(0);
  id = new Int32Array(0);
  end = new Float64Array(0);
  /** Status code and flags ({@link FLAG_BITS}): what every list checks, read at once from a table per query. */
  meta = new Uint16Array(0);
  date = new Float64Array(0);
  modified = new Float64Array(0);
  author = new Int32Array(0);
  parent = new Int32Array(0);
  /** 0 for none. */
  venue = new Int32Array(0);
  /** Categories, tags and organizers of row r: `vals[valOff[r] …]`, `catN[r]`, `tagN[r]`, `orgN[r]` long. */
  valOff = new Uint32Array(0);
  catN = new Uint16Array(0);
  tagN = new Uint16Array(0);
  orgN = new Uint16Array(0);
  vals = new Int32Array(1024);
  #valsUsed = 0;
  /** The bigger columns being filled meanwhile (see ./growth.ts), and the rows asked for by {@link reserve}. */
  #growth: Growth | null = null;
  #valsGrowth: Growth | null = null;
  #want = 0;
  readonly #atOnce: number;
  readonly #slice: number;
  readonly #allocateAtOnce: number;

  /**
   * Tests make `atOnce`, `slice` and `allocateAtOnce` small, to grow a slice at a time, and allocate the new columns
   * one at a time, at any size (see ./growth.ts).
   */
  constructor({ atOnce = AT_ONCE, slice = SLICE, allocateAtOnce = ALLOCATE_AT_ONCE } = {}) {
    this.#atOnce = atOnce;
    this.#slice = slice;
    this.#allocateAtOnce = allocateAtOnce;
  }
  /** Search text of each row (UTF-8, lower-cased; held as token ids: ./text.ts), and its slug. */
  readonly text = new TextColumn(4 << 20);
  readonly slugs = new ByteColumn(1 << 20);
  /** Rows whose end is before their start: while there is none, an end bound also bounds the start. */
  inverted = 0;

  /** The live row of each event id. */
  readonly rowOf = new IdTable(0, Int32Array);
  readonly #idOfSlug = new SlugTable((id) => {
    const r = this.rowOf.get(id);
    return r === undefined ? undefined : this.slugs.string(r);
  });
  /** Status names by code, and codes by name (at most 255). */
  readonly statusCode = new Map<string, number>();
  readonly statusName: string[] = [];

  /** A new live row holding `f` (the caller has killed the event's previous row). */
  add(f: StoredEvent): number {
    const r = this.#nextRow();
    this.id[r] = f.id;
    this.start[r] = wallKey(f.start);
    this.end[r] = wallKey(f.end);
    this.date[r] = wallKey(f.date);
    this.modified[r] = wallKey(f.modifiedGmt);
    this.author[r] = f.author;
    this.parent[r] = f.parent;
    this.venue[r] = f.venue ?? 0;
    this.meta[r] = (this.#codeOf(f.status) << FLAG_BITS) | ALIVE | flagsOf(f);
    this.#putVals(r, f.categories, f.tags, f.organizers);
    this.text.put(r, f.searchText);
    this.slugs.put(r, f.slug);
    return this.#live(r, f.id, f.slug);
  }

  /**
   * A new live row holding what row `r` of `from` holds (a compaction's copy): columns copied as numbers, text and
   * slug as bytes, nothing decoded but the slug (for the slug table).
   */
  copy(from: Rows, r: number): number {
    const c = this.#nextRow();
    const id = from.id[r];
    this.id[c] = id;
    this.start[c] = from.start[r];
    this.end[c] = from.end[r];
    this.date[c] = from.date[r];
    this.modified[c] = from.modified[r];
    this.author[c] = from.author[r];
    this.parent[c] = from.parent[r];
    this.venue[c] = from.venue[r];
    const m = from.meta[r];
    this.meta[c] =
      (this.#codeOf(from.statusName[m >> FLAG_BITS]) << FLAG_BITS) | (m & ((1 << FLAG_BITS) - 1));
    const o = from.valOff[r];
    const n = from.catN[r] + from.tagN[r] + from.orgN[r];
    this.#room(n);
    this.vals.set(from.vals.subarray(o, o + n), this.#valsUsed);
    this.valOff[c] = this.#valsUsed;
    this.#valsUsed += n;
    this.catN[c] = from.catN[r];
    this.tagN[c] = from.tagN[r];
    this.orgN[c] = from.orgN[r];
    this.text.copyRow(c, from.text, r);
    const a = from.slugs.start(r);
    this.slugs.putBytes(c, from.slugs.slab(r), a, a + from.slugs.length(r));
    return this.#live(c, id, from.slugs.string(r));
  }

  /**
   * A new live row holding what `e` reads from its bytes (a snapshot load): numbers and bytes copied as they are, no
   * record and no string but the slug (for the slug table).
   */
  addBytes(e: RowBytes): number {
    const r = this.#nextRow();
    const b = e.bytes;
    this.id[r] = e.id;
    this.start[r] = e.start;
    this.end[r] = e.end;
    this.date[r] = e.date;
    this.modified[r] = e.modified;
    this.author[r] = e.author;
    this.parent[r] = e.parent;
    this.venue[r] = e.venue;
    this.meta[r] = (this.#codeOf(e.status) << FLAG_BITS) | ALIVE | (e.flags & (ALIVE - 1));
    this.#room(e.catN + e.tagN + e.orgN);
    this.valOff[r] = this.#valsUsed;
    for (const [at, n] of [
      [e.catAt, e.catN],
      [e.tagAt, e.tagN],
      [e.orgAt, e.orgN],
    ])
      for (let j = 0; j < n; j++) this.vals[this.#valsUsed++] = b.readInt32LE(at + 4 * j);
    this.catN[r] = e.catN;
    this.tagN[r] = e.tagN;
    this.orgN[r] = e.orgN;
    this.text.putBytes(r, b, e.textAt, e.textAt + e.textLen);
    this.slugs.putBytes(r, b, e.slugAt, e.slugAt + e.slugLen);
    return this.#live(r, e.id, this.slugs.string(r));
  }

  /** Row `r`, just filled for event `id`, becomes its live row. */
  #live(r: number, id: number, slug: string): number {
    if (slug) this.#idOfSlug.set(slug, id);
    if (this.#isInverted(r)) this.inverted++;
    this.rowOf.set(id, r);
    this.alive++;
    return r;
  }

  /** Row `r`, the live row of event `id`, dies. */
  kill(r: number, id: number): void {
    this.meta[r] &= ~ALIVE;
    // A row already copied into the growing columns dies there too: it is not copied again.
    const g = this.#growth;
    if (g && r < g.copied) (g.to[META] as Uint16Array<ArrayBuffer>)[r] &= ~ALIVE;
    if (this.#isInverted(r)) this.inverted--;
    this.#idOfSlug.delete(this.slugs.string(r), id);
    this.rowOf.delete(id);
    this.alive--;
  }

  /** Bytes held by part (see `EventColumns.bytesByPart`). */
  bytesByPart(): Record<string, number> {
    const perRow = this.#perRow().reduce((n, a) => n + a.byteLength, 0);
    const growing = (this.#growth?.to ?? []).reduce((n, a) => n + a.byteLength, 0);
    return {
      [`per-row columns (${this.cap} rows allocated, ${this.used} used)`]: perRow + growing,
      'categories, tags, organizers': this.vals.byteLength,
      'search text (token ids)': this.text.bytes,
      'token dictionary (shared)': TextColumn.dictionaryBytes,
      slugs: this.slugs.bytes,
      'id tables (row of an id, id of a slug)': this.rowOf.bytes + this.#idOfSlug.bytes,
    };
  }

  idOfSlug(slug: string): number | undefined {
    return this.#idOfSlug.get(slug);
  }

  record(r: number): IndexedEvent {
    const o = this.valOff[r];
    const c = this.catN[r];
    const t = this.tagN[r];
    const g = this.orgN[r];
    const f = this.meta[r];
    return {
      id: this.id[r],
      status: this.statusName[f >> FLAG_BITS],
      slug: this.slugs.string(r),
      start: wallText(this.start[r]),
      end: wallText(this.end[r]),
      categories: Array.from(this.vals.subarray(o, o + c)),
      tags: Array.from(this.vals.subarray(o + c, o + c + t)),
      venue: this.venue[r] === 0 ? null : this.venue[r],
      organizers: Array.from(this.vals.subarray(o + c + t, o + c + t + g)),
      featured: (f & FLAG.featured) !== 0,
      hidden: (f & FLAG.hidden) !== 0,
      parent: this.parent[r],
      protected: (f & FLAG.protected) !== 0,
      author: this.author[r],
      date: wallText(this.date[r]),
      modifiedGmt: wallText(this.modified[r]),
      hasExcerpt: (f & FLAG.hasExcerpt) !== 0,
      ...(f & FLAG.series ? { series: true as const } : {}),
      ...(f & FLAG.override ? { override: true as const } : {}),
    };
  }

  stored(r: number): StoredEvent {
    return { ...this.record(r), searchText: this.textOf(r).toString('utf8') };
  }

  /**
   * Whether row `r` holds `f` as given (dates as their keys read them back), read from the columns: a poll asks this
   * of every post it reads, so it builds no record.
   */
  holds(r: number, f: StoredEvent): boolean {
    const m = this.meta[r];
    if (
      this.id[r] !== f.id ||
      this.statusName[m >> FLAG_BITS] !== f.status ||
      (m & (ALIVE - 1)) !== flagsOf(f) ||
      this.start[r] !== wallKey(f.start) ||
      this.end[r] !== wallKey(f.end) ||
      this.date[r] !== wallKey(f.date) ||
      this.modified[r] !== wallKey(f.modifiedGmt) ||
      this.author[r] !== f.author ||
      this.parent[r] !== f.parent ||
      // A venue of 0 is stored as none.
      this.venue[r] !== (f.venue ?? 0) ||
      this.catN[r] !== f.categories.length ||
      this.tagN[r] !== f.tags.length ||
      this.orgN[r] !== f.organizers.length
    )
      return false;
    let o = this.valOff[r];
    for (const list of [f.categories, f.tags, f.organizers])
      for (const v of list) if (this.vals[o++] !== v) return false;
    return this.slugs.equals(r, f.slug) && this.text.equals(r, f.searchText);
  }

  /** Row `r`'s search text, lower-cased UTF-8, in a buffer the next read of the text overwrites (use it at once). */
  textOf(r: number): Buffer {
    return this.text.view(r);
  }

  /**
   * Makes room for `rows` more rows and half as many again, so that a crawl or a compaction that knows its size
   * grows the columns once, early, and not again before the next compaction: the rows of replaced events reach a
   * quarter of the live ones before a compaction starts, and a growth starts when an eighth of the rows used are
   * free (./growth.ts). Text and slugs grow by slabs, never copied.
   */
  reserve(rows: number): void {
    for (const step of this.reserving(rows)) step();
  }

  /**
   * {@link reserve} as steps (the columns' growth started, the id table, the slug table) for a caller that yields
   * between them: at 100k rows each is a few ms of fresh memory touched.
   */
  reserving(rows: number): (() => void)[] {
    if (rows <= 0) return [];
    // The new columns one a step (see ALLOCATE_AT_ONCE in ./growth.ts); the last one taken in at once while few rows
    // are held (a load or crawl reserves after its first page).
    const allocate = () => {
      const g = this.#growth;
      if (!g || g.allocated || !g.allocate(1)) return;
      if (this.used < this.#atOnce && g.copy(this.#perRow(), this.used, true)) this.#adopt(g);
    };
    return [
      () => {
        this.#want = Math.max(this.#want, Math.ceil((this.used + rows) * 1.5));
        if (this.#want > this.cap && !this.#growth) this.#startGrowth();
      },
      ...this.#perRow().map(() => allocate),
      () => this.rowOf.reserve(this.alive + rows),
      () => this.#idOfSlug.reserve(this.alive + rows),
    ];
  }

  #isInverted(r: number): boolean {
    const s = this.start[r];
    const e = this.end[r];
    return s !== NO_DATE && e !== NO_DATE && e < s;
  }

  #codeOf(status: string): number {
    let c = this.statusCode.get(status);
    if (c === undefined) {
      if (this.statusName.length === 255) throw new Error('more than 255 post statuses');
      c = this.statusName.length;
      this.statusCode.set(status, c);
      this.statusName.push(status);
    }
    return c;
  }

  /** Room for `n` more values in `vals`, grown as the rows' columns are (./growth.ts). */
  #room(n: number): void {
    const need = this.#valsUsed + n;
    if (!this.#valsGrowth && growthDue(need, this.vals.length, this.#atOnce))
      this.#valsGrowth = new Growth(
        [this.vals],
        Math.max(this.vals.length * 2, need),
        this.#slice,
        this.#allocateAtOnce,
      );
    const g = this.#valsGrowth;
    if (!g) return;
    const now = need > this.vals.length || this.#valsUsed < this.#atOnce;
    if ((now || g.due(n, this.#valsUsed)) && g.copy([this.vals], this.#valsUsed, now)) {
      this.vals = g.to[0] as Int32Array<ArrayBuffer>;
      this.#valsGrowth = null;
      // A row of more values than the growth made room for.
      if (need > this.vals.length) this.#room(n);
    }
  }

  #putVals(r: number, categories: number[], tags: number[], organizers: number[]): void {
    this.#room(categories.length + tags.length + organizers.length);
    this.valOff[r] = this.#valsUsed;
    for (const l of [categories, tags, organizers]) for (const v of l) this.vals[this.#valsUsed++] = v;
    this.catN[r] = categories.length;
    this.tagN[r] = tags.length;
    this.orgN[r] = organizers.length;
  }

  /** The next row, with room made for it: a growth started, or a slice of one under way copied (./growth.ts). */
  #nextRow(): number {
    if (!this.#growth && (growthDue(this.used, this.cap, this.#atOnce) || this.#want > this.cap))
      this.#startGrowth();
    const g = this.#growth;
    if (g) {
      // Full (which the growth's pace should never let happen), or small: copied at once (once its columns are
      // allocated, unless full: a reservation allocates them a step at a time).
      const now = this.used === this.cap || (this.used < this.#atOnce && g.allocated);
      if ((now || g.due(1, this.used)) && g.copy(this.#perRow(), this.used, now)) this.#adopt(g);
    }
    return this.used++;
  }

  #startGrowth(): void {
    const cap = Math.max(1024, this.cap * 2, this.#want);
    const g = new Growth(this.#perRow(), cap, this.#slice, this.#allocateAtOnce);
    this.#growth = g;
    if (this.used < this.#atOnce && g.allocated && g.copy(this.#perRow(), this.used, true)) this.#adopt(g);
  }

  /** Every column with one entry per row, in the order {@link adopt} takes them back. */
  #perRow(): Column[] {
    return [
      this.start,
      this.id,
      this.end,
      this.meta,
      this.date,
      this.modified,
      this.author,
      this.parent,
      this.venue,
      this.valOff,
      this.catN,
      this.tagN,
      this.orgN,
      ...this.text.perRow,
      ...this.slugs.perRow,
    ];
  }

  #adopt(g: Growth): void {
    const t = g.to;
    this.start = t[0] as Float64Array<ArrayBuffer>;
    this.id = t[1] as Int32Array<ArrayBuffer>;
    this.end = t[2] as Float64Array<ArrayBuffer>;
    this.meta = t[META] as Uint16Array<ArrayBuffer>;
    this.date = t[4] as Float64Array<ArrayBuffer>;
    this.modified = t[5] as Float64Array<ArrayBuffer>;
    this.author = t[6] as Int32Array<ArrayBuffer>;
    this.parent = t[7] as Int32Array<ArrayBuffer>;
    this.venue = t[8] as Int32Array<ArrayBuffer>;
    this.valOff = t[9] as Uint32Array<ArrayBuffer>;
    this.catN = t[10] as Uint16Array<ArrayBuffer>;
    this.tagN = t[11] as Uint16Array<ArrayBuffer>;
    this.orgN = t[12] as Uint16Array<ArrayBuffer>;
    this.text.perRow = [
      t[13] as Float64Array<ArrayBuffer>,
      t[14] as Uint32Array<ArrayBuffer>,
      t[15] as Uint32Array<ArrayBuffer>,
    ];
    this.slugs.perRow = [t[16] as Float64Array<ArrayBuffer>, t[17] as Uint32Array<ArrayBuffer>];
    this.cap = g.cap;
    this.#growth = null;
  }
}
