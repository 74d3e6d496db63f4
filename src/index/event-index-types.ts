// The event index's public shapes: its options, the snapshot it hands out and takes back, and a reconciliation's result.

import type { Mapping } from '../mapping/schema.ts';
import type { WpClient } from '../wp/client.ts';
import type { ColumnsOptions } from './columns/index.ts';
import type { RowBytes, Rows, StoredEvent } from './columns/rows.ts';
import type { RepeatFacets } from './occurrences/repeat.ts';
import type { IndexLogger } from './progress.ts';

/** The part of the WordPress client the index uses (tests pass a stub). */
export type IndexClient = Pick<WpClient, 'all' | 'list' | 'request'>;

export interface EventIndexOptions {
  client: IndexClient;
  mapping: Mapping;
  language: string;
  logger?: IndexLogger;
  /**
   * How far before the newest `modified_gmt` seen the next poll starts: covers saves within the same second and
   * transactions that commit late. The duration of the previous crawl is added on top.
   */
  overlapMs?: number;
  /** Pages of 100 the crawl (and the reconciliation) read from WordPress at once. Default 2. */
  crawlConcurrency?: number;
  /**
   * Ids a poll, refetch or reconciliation found changed or gone upstream (not writes through the gateway), with the
   * `links:*` tags of the linked lists those changes alter (src/cache/links.ts), and whether they took nothing out
   * of public view (src/cache/soft.ts: their cached answers may drop softly).
   */
  onChange?: (ids: number[], links: string[], soft: boolean) => void;
  /**
   * Tests: the columns' block size and plan (see {@link ColumnsOptions}), the compaction's pace (`compactRows`
   * copied between two looks at the clock, `compactMs` of copying before it yields; 0: after every `compactRows`),
   * and `sliceMs` of applying crawled or polled posts before yielding (0: after every post). Small values reach,
   * with a few events, the block splits and the interleavings a large site has.
   */
  /** How far lists of occurrences look ahead by default (months; RECURRENCE_WINDOW_MONTHS). Default 24. */
  recurrenceWindowMonths?: number;
  tuning?: {
    columns?: ColumnsOptions;
    compactRows?: number;
    compactMs?: number;
    sliceMs?: number;
    /** Occurrences per block of the occurrence timeline (tests make it small, to have many). */
    occurrenceBlock?: number;
  };
}

/** What an index needs to resume without a crawl (kept in Redis by src/index/snapshot.ts). */
export interface IndexSnapshot {
  language: string;
  since: number | null;
  builtAt: string;
  size: number;
  /** Every event as stored, in (start, id) order, `n` at a time (a consistent view, read over many ticks). */
  batches(n: number): Iterable<StoredEvent[]>;
  /** The same events as rows of the columns, `n` at a time (what a save encodes, without decoding them). */
  runs(n: number): Iterable<{ rows: Rows; list: Int32Array }>;
  /** The recurrence facets of its series and overrides (absent: none). */
  repeats?(): Iterable<[number, RepeatFacets]>;
}

/** Loading a snapshot in batches (over many ticks); abandoned unless finished, leaving the index empty. */
export interface Restoring {
  add(batch: readonly StoredEvent[]): void;
  /** Adds one event read in place from a snapshot's bytes (the next in order; no record is built). */
  addBytes(row: RowBytes): void;
  /** Makes room for `rows` more events at once (a load that knows its size copies no column as it grows). */
  reserve(rows: number): void;
  /** {@link reserve} as steps, for a load that yields between them (at 1M events, ~200 MB of tables made). */
  reserving(rows: number): (() => void)[];
  /** The recurrence facets of series and overrides already added (a snapshot's last chunk). */
  addRepeats(list: Iterable<[number, RepeatFacets]>): void;
  finish(since: number | null, builtAt: string): void;
  abandonUnlessFinished(): void;
}

export interface ReconcileResult {
  removed: number;
  refetched: number;
}
