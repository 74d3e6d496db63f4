// The change log's records, shared by the changes feed (src/changes/) and the webhook deliveries (src/webhooks/).

/** The record kinds the log follows. */
export type ChangeKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

export type ChangeAction = 'created' | 'updated' | 'deleted';

/**
 * One committed change, as appended to the log. In Redis it is one entry of the stream `<REDIS_PREFIX>changes`, with
 * these fields as strings (`tags` comma-joined, `public` as `1`/`0`); its stream id is its position.
 */
export interface Change {
  kind: ChangeKind;
  /** The WordPress id of the record (a series' post id for a series; occurrences are not logged one by one). */
  id: number;
  action: ChangeAction;
  /** WordPress's `modified_gmt` after the change (`Y-m-d H:i:s`), or the time of the deletion. */
  modified_utc: string;
  /** The record's URL in the calendar namespace, on the default language root. */
  rest_url: string;
  /** The cache tags a front-end revalidates by (the same names as the `Cache-Tag`/`xkey` headers). */
  tags: string[];
  /** Whether an anonymous reader may see the record after the change (published, no password). */
  public: boolean;
}

/** A change with its place in the log. `cursor` is opaque to readers. */
export interface LoggedChange extends Change {
  cursor: string;
  /**
   * Whether an anonymous reader could see the record before this change (stream field `was_public`, `1`/`0`): the
   * feed turns a record leaving or entering public view into a deletion or a creation for such readers. Absent in
   * entries appended without it: read as `public`.
   */
  was_public?: boolean;
}

/** The log as its readers see it: the feed reads ranges; the webhook deliveries follow it from a cursor. */
export interface ChangeLog {
  append(change: Change): Promise<LoggedChange>;
  /** Changes after `cursor` (exclusive; `'0'` for the start), oldest first, at most `limit`. */
  read(cursor: string, limit: number): Promise<LoggedChange[]>;
  /** Calls `listener` for each change appended from now on, by any instance; returns the unsubscribe. */
  follow(listener: (change: LoggedChange) => void): () => void;
}
