// The event index snapshot as bytes: a header, then rows in (start, id) order, 500 per gzip chunk, each chunk
// a few runs of rows. A run is encoded or loaded in one tick (a few ms) and chunks are compressed off the event
// loop (zlib's thread pool), so saving or loading 1M events never holds the loop for long; no single string or
// buffer has to hold the whole index.
import { setImmediate as nextTick } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import {
  ALIVE,
  FLAG,
  FLAG_BITS,
  flagsOf,
  type RowBytes,
  type Rows,
  type StoredEvent,
} from './columns/rows.ts';
import { wallKey, wallText } from './columns/wall-clock.ts';
import type { EventIndex, IndexSnapshot } from './event-index.ts';
import type { RepeatFacets } from './occurrences/repeat.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

const FORMAT = 'calendar-gateway-index';
/**
 * 2: a protected event's search text is its title alone (src/index/facets.ts). 3: rows flag series and overrides,
 * and their recurrence facets follow the rows (src/index/occurrences/). Older snapshots are not loaded (a crawl
 * rebuilds): without the facets their series would be listed once instead of per occurrence.
 */
const VERSION = 3;
/** Recurrence facets per chunk after the rows. */
const REPEATS_PER_CHUNK = 2000;
/** Rows per chunk: ~300 kB before compression with 500-character texts. */
export const ROWS_PER_CHUNK = 500;
/** Rows per run: what is encoded or loaded in one tick (2–3 ms at 500-character texts). */
const ROWS_PER_RUN = 100;

interface Header {
  format: typeof FORMAT;
  version: number;
  language: string;
  since: number | null;
  builtAt: string;
  size: number;
  /** How many series and overrides' recurrence facets follow the rows. */
  repeats?: number;
}

/** Rows as bytes: count, then per row fixed fields, then the variable ones length-prefixed (little-endian). */
export function encodeRows(rows: readonly StoredEvent[]): Buffer {
  let size = 4;
  const strings = rows.map((r) => {
    const s = {
      status: Buffer.from(r.status, 'utf8'),
      slug: Buffer.from(r.slug, 'utf8'),
      text: Buffer.from(r.searchText, 'utf8'),
    };
    size +=
      16 +
      32 +
      1 +
      1 +
      s.status.length +
      2 +
      s.slug.length +
      6 +
      4 * (r.categories.length + r.tags.length + r.organizers.length) +
      4 +
      s.text.length;
    return s;
  });
  const b = Buffer.allocUnsafe(size);
  let o = b.writeUInt32LE(rows.length, 0);
  rows.forEach((r, i) => {
    const s = strings[i];
    o = b.writeInt32LE(r.id, o);
    o = b.writeInt32LE(r.author, o);
    o = b.writeInt32LE(r.parent, o);
    o = b.writeInt32LE(r.venue ?? 0, o);
    for (const d of [r.start, r.end, r.date, r.modifiedGmt]) o = b.writeDoubleLE(wallKey(d), o);
    o = b.writeUInt8(flagsOf(r), o);
    o = b.writeUInt8(s.status.length, o);
    o += s.status.copy(b, o);
    o = b.writeUInt16LE(s.slug.length, o);
    o += s.slug.copy(b, o);
    for (const list of [r.categories, r.tags, r.organizers]) {
      o = b.writeUInt16LE(list.length, o);
      for (const v of list) o = b.writeInt32LE(v, o);
    }
    o = b.writeUInt32LE(s.text.length, o);
    o += s.text.copy(b, o);
  });
  return b;
}

/**
 * Rows `list` of the columns as bytes: what {@link encodeRows} writes for the same events, read from the columns
 * where they are (dates as their keys, text and slug as bytes), so a save builds no record per row.
 */
export function encodeRowsOf(rows: Rows, list: Int32Array): Buffer {
  const { text, slugs, statusName, meta, catN, tagN, orgN } = rows;
  const status = statusName.map((name) => Buffer.from(name, 'utf8'));
  let size = 4;
  for (const r of list)
    size +=
      62 +
      status[meta[r] >> FLAG_BITS].length +
      slugs.length(r) +
      4 * (catN[r] + tagN[r] + orgN[r]) +
      text.length(r);
  const b = Buffer.allocUnsafe(size);
  let o = b.writeUInt32LE(list.length, 0);
  for (const r of list) {
    o = b.writeInt32LE(rows.id[r], o);
    o = b.writeInt32LE(rows.author[r], o);
    o = b.writeInt32LE(rows.parent[r], o);
    o = b.writeInt32LE(rows.venue[r], o);
    o = b.writeDoubleLE(rows.start[r], o);
    o = b.writeDoubleLE(rows.end[r], o);
    o = b.writeDoubleLE(rows.date[r], o);
    o = b.writeDoubleLE(rows.modified[r], o);
    const m = meta[r];
    o = b.writeUInt8(m & (ALIVE - 1), o);
    const st = status[m >> FLAG_BITS];
    o = b.writeUInt8(st.length, o);
    o += st.copy(b, o);
    o = b.writeUInt16LE(slugs.length(r), o);
    o += slugs.slab(r).copy(b, o, slugs.start(r), slugs.start(r) + slugs.length(r));
    let v = rows.valOff[r];
    for (const n of [catN[r], tagN[r], orgN[r]]) {
      o = b.writeUInt16LE(n, o);
      for (const end = v + n; v < end; v++) o = b.writeInt32LE(rows.vals[v], o);
    }
    o = b.writeUInt32LE(text.length(r), o);
    o += text.view(r).copy(b, o);
  }
  return b;
}

/**
 * The runs of rows of a chunk ({@link encodeRows} outputs one after another), one at a time. Throws on bytes it did
 * not write (a truncated or foreign value).
 */
export function* decodeRuns(b: Buffer): Generator<StoredEvent[]> {
  for (let o = 0; o < b.length; ) {
    const { rows, end } = decodeRun(b, o);
    yield rows;
    o = end;
  }
}

/** One run of rows from `from`, and where it ends. */
function decodeRun(b: Buffer, from: number): { rows: StoredEvent[]; end: number } {
  const out: StoredEvent[] = [];
  const list = (at: number, n: number) => Array.from({ length: n }, (_, j) => b.readInt32LE(at + 4 * j));
  const end = readRun(b, from, (e) => {
    out.push({
      id: e.id,
      status: e.status,
      slug: b.toString('utf8', e.slugAt, e.slugAt + e.slugLen),
      start: wallText(e.start),
      end: wallText(e.end),
      categories: list(e.catAt, e.catN),
      tags: list(e.tagAt, e.tagN),
      venue: e.venue === 0 ? null : e.venue,
      organizers: list(e.orgAt, e.orgN),
      featured: (e.flags & FLAG.featured) !== 0,
      hidden: (e.flags & FLAG.hidden) !== 0,
      parent: e.parent,
      protected: (e.flags & FLAG.protected) !== 0,
      author: e.author,
      date: wallText(e.date),
      modifiedGmt: wallText(e.modified),
      hasExcerpt: (e.flags & FLAG.hasExcerpt) !== 0,
      ...(e.flags & FLAG.series ? { series: true as const } : {}),
      ...(e.flags & FLAG.override ? { override: true as const } : {}),
      searchText: b.toString('utf8', e.textAt, e.textAt + e.textLen),
    });
  });
  return { rows: out, end };
}

/**
 * Reads the run of rows at `from` in place: hands each row to `each` as one object refilled per row (numbers, and
 * where its bytes are), and returns where the run ends. A load copies the rows into the columns from there, without
 * a record or string per row (at 100k events, 2 objects and 3 strings a row were most of a load's collections).
 * Throws on bytes it did not write (a truncated or foreign value), before `each` sees the row.
 */
export function readRun(b: Buffer, from: number, each: (row: RowBytes) => void): number {
  let o = from;
  const n = b.readUInt32LE(o);
  o += 4;
  const e: RowBytes = {
    bytes: b,
    id: 0,
    author: 0,
    parent: 0,
    venue: 0,
    start: 0,
    end: 0,
    date: 0,
    modified: 0,
    flags: 0,
    status: '',
    slugAt: 0,
    slugLen: 0,
    catAt: 0,
    catN: 0,
    tagAt: 0,
    tagN: 0,
    orgAt: 0,
    orgN: 0,
    textAt: 0,
    textLen: 0,
  };
  /** `len` bytes from `o`, checked to be there. */
  const skip = (len: number) => {
    if (o + len > b.length) throw new RangeError('snapshot chunk is truncated');
    o += len;
    return o - len;
  };
  for (let i = 0; i < n; i++) {
    e.id = b.readInt32LE(o);
    e.author = b.readInt32LE(o + 4);
    e.parent = b.readInt32LE(o + 8);
    e.venue = b.readInt32LE(o + 12);
    e.start = b.readDoubleLE(o + 16);
    e.end = b.readDoubleLE(o + 24);
    e.date = b.readDoubleLE(o + 32);
    e.modified = b.readDoubleLE(o + 40);
    e.flags = b.readUInt8(o + 48);
    const statusLen = b.readUInt8(o + 49);
    o += 50;
    e.status = statusOf(b, skip(statusLen), statusLen);
    e.slugLen = b.readUInt16LE(o);
    o += 2;
    e.slugAt = skip(e.slugLen);
    e.catN = b.readUInt16LE(o);
    e.catAt = skip(2 + 4 * e.catN) + 2;
    e.tagN = b.readUInt16LE(o);
    e.tagAt = skip(2 + 4 * e.tagN) + 2;
    e.orgN = b.readUInt16LE(o);
    e.orgAt = skip(2 + 4 * e.orgN) + 2;
    e.textLen = b.readUInt32LE(o);
    o += 4;
    e.textAt = skip(e.textLen);
    each(e);
  }
  return o;
}

/** Status names met (a handful), so a load makes no string per row for them. */
const statuses: { bytes: Buffer; name: string }[] = [];

/** The status name written at `b[at, at + len)`. */
function statusOf(b: Buffer, at: number, len: number): string {
  for (const s of statuses)
    if (s.bytes.length === len && b.compare(s.bytes, 0, len, at, at + len) === 0) return s.name;
  const name = b.toString('utf8', at, at + len);
  // Bounded: a foreign snapshot could hold any number of names.
  if (statuses.length < 64) statuses.push({ bytes: Buffer.from(name, 'utf8'), name });
  return name;
}

/**
 * The snapshot of an index as compressed chunks: the header first, then the rows. Encodes one chunk per tick and
 * compresses it on the thread pool. The rows are those of the index when it starts: a compaction meanwhile builds
 * new columns and leaves the ones read as they were.
 */
export async function* encodeSnapshot(index: EventIndex): AsyncGenerator<Buffer> {
  const s = index.snapshot();
  if (!s) return;
  // Taken now, with the rows: the same view of the index.
  const repeats = [...(s.repeats?.() ?? [])];
  const header: Header = {
    format: FORMAT,
    version: VERSION,
    language: s.language,
    since: s.since,
    builtAt: s.builtAt,
    size: s.size,
    repeats: repeats.length,
  };
  yield await gzipAsync(Buffer.from(JSON.stringify(header), 'utf8'));
  let runs: Buffer[] = [];
  let rows = 0;
  for (const run of s.runs(ROWS_PER_RUN)) {
    runs.push(encodeRowsOf(run.rows, run.list));
    rows += run.list.length;
    if (rows < ROWS_PER_CHUNK) {
      await nextTick();
      continue;
    }
    yield await gzipAsync(Buffer.concat(runs));
    runs = [];
    rows = 0;
  }
  if (runs.length) yield await gzipAsync(Buffer.concat(runs));
  for (let i = 0; i < repeats.length; i += REPEATS_PER_CHUNK) {
    yield await gzipAsync(Buffer.from(JSON.stringify(repeats.slice(i, i + REPEATS_PER_CHUNK)), 'utf8'));
  }
}

/** Reads a snapshot's header chunk; null when it is not one of ours or not for `language`. */
async function headerOf(chunk: Buffer, language: string): Promise<Header | null> {
  const h = JSON.parse((await gunzipAsync(chunk)).toString('utf8')) as Partial<Header>;
  return h.format === FORMAT && h.version === VERSION && h.language === language ? (h as Header) : null;
}

/**
 * A version-1 row as version 2 stores it: a protected event keeps the first line of its text, its title (a title
 * that held a line break keeps less of itself, never more), so a snapshot written before cannot bring the rest back.
 */
export const fromVersion1 = (r: StoredEvent): StoredEvent =>
  r.protected ? { ...r, searchText: r.searchText.split('\n', 1)[0] ?? '' } : r;

/**
 * Loads snapshot chunks into an empty index, a chunk per tick. Resolves false (index left empty) when the chunks
 * are not a whole snapshot of the index's language.
 */
export async function decodeSnapshot(
  index: EventIndex,
  chunks: Iterable<Buffer> | AsyncIterable<Buffer>,
): Promise<boolean> {
  let header: Header | null = null;
  let rows = 0;
  let repeats = 0;
  const restore = index.restoring();
  try {
    for await (const chunk of chunks) {
      if (!header) {
        header = await headerOf(chunk, index.language);
        if (!header) return false;
        continue;
      }
      const body = await gunzipAsync(chunk);
      if (rows === header.size && rows > 0) {
        // After the rows: the recurrence facets of their series and overrides.
        const list = JSON.parse(body.toString('utf8')) as [number, RepeatFacets][];
        restore.addRepeats(list);
        repeats += list.length;
        await nextTick();
        continue;
      }
      for (let o = 0; o < body.length; ) {
        let n = 0;
        if (header.version === 1) {
          const run = decodeRun(body, o);
          restore.add(run.rows.map(fromVersion1));
          n = run.rows.length;
          o = run.end;
        } else {
          // Rows go from the bytes into the columns as they are: no record, no string of text.
          o = readRun(body, o, (row) => {
            restore.addBytes(row);
            n++;
          });
        }
        // Room for the rest, now that the text's size per row is known: a step a tick (tables of ~200 MB at 1M events).
        if (rows === 0)
          for (const step of restore.reserving(header.size - n)) {
            step();
            await nextTick();
          }
        rows += n;
        await nextTick();
      }
    }
    if (!header || rows !== header.size || repeats !== (header.repeats ?? 0)) return false;
    restore.finish(header.since, header.builtAt);
    return true;
  } catch {
    return false;
  } finally {
    restore.abandonUnlessFinished();
  }
}

export type { IndexSnapshot };
