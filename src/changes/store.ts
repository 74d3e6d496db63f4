// What the feed and the recorder need of a change log beyond ChangeLog: the ledger, positions and expiry.
import type { Observation } from './ledger.ts';
import type { ChangeKind, ChangeLog, LoggedChange } from './types.ts';

/** Ledger entries of one kind, a page at a time: `next` is `'0'` after the last page. */
export interface LedgerPage {
  entries: Array<[id: number, state: string]>;
  next: string;
}

export interface ChangeStore extends ChangeLog {
  /**
   * A random name of this log, made once (in Redis: shared, kept across restarts; in memory: per process). Cursors
   * carry it, so that a cursor of another log (a restarted in-memory log, a flushed Redis) is refused, not misread.
   */
  epoch(): Promise<string>;
  /** Logs what a source saw if the ledger says it is a change (src/changes/ledger.ts); else resolves null. */
  observe(o: Observation): Promise<LoggedChange | null>;
  /** The position of the newest entry (`'0'` when the log is empty): an initial sync goes on from there. */
  head(): Promise<string>;
  /** Whether entries after `cursor` were trimmed away (older than the retention): the reader must resync. */
  expired(cursor: string): Promise<boolean>;
  /** The ledger's entries of a kind, `count` at a time from `cursor` (`'0'` to start). */
  scan(kind: ChangeKind, cursor: string, count: number): Promise<LedgerPage>;
  /** The ledger's entries of some records (undefined: never logged). */
  states(kind: ChangeKind, ids: number[]): Promise<Array<string | undefined>>;
  /** Whether the ledger of a kind was ever filled (a first start fills it without logging anything). */
  seeded(kind: ChangeKind): Promise<boolean>;
  /**
   * Fills the ledger of a kind with some of what exists now, logging nothing and keeping an entry it holds already
   * (a first start seeds a chunk at a time, then marks the kind seeded; one stopped half way seeds again).
   */
  seed(kind: ChangeKind, observations: Observation[]): Promise<void>;
  /** Marks the ledger of a kind filled: the next start reconciles it instead of seeding it. */
  markSeeded(kind: ChangeKind): Promise<void>;
  /** How long entries are kept (tombstones included). */
  readonly retentionMs: number;
  /** The taxonomies of categories and tags (their cache tags name them). */
  readonly taxonomy: Record<'category' | 'tag', string>;
  close(): Promise<void>;
}

/** Stream ids (`<ms>-<seq>`) in order; `'0'` is before every id (the invalidation stream's comparison). */
export { compareIds } from '../cache/stream.ts';

/** Whether a string is a stream id (`'0'` or `<ms>-<seq>`). */
export const isStreamId = (s: string): boolean => s === '0' || /^\d{1,15}-\d{1,15}$/.test(s);
