// The ledger: what the log last said of each record, so that a change seen by several sources (a write, the companion
// plugin's notification, a poll, another instance) is appended once, in order, as created, updated or deleted. Pure.
import { utcWallOf } from '../dates/utc-wall.ts';
import type { Change, ChangeAction, ChangeKind } from './types.ts';

/** What a source saw of a record now. */
export interface Observation {
  kind: ChangeKind;
  id: number;
  /**
   * The record's version (no `|`): a post's `modified_gmt`, status and password flag, a term's digest; `null` when
   * it is gone (deleted or trashed).
   */
  version: string | null;
  /** A post's `modified_gmt` (`Y-m-d H:i:s`), to refuse a read older than what the log holds; `''` for terms. */
  order: string;
  /** Whether an anonymous reader may see it now (published, no password); false when gone. */
  public: boolean;
  /**
   * A write through the gateway saw it change: logged even when its version reads the same (WordPress's modified
   * date has one-second resolution, so two saves within a second can carry the same version). The sources that hear
   * of that write again (the plugin's notification, a poll) are not forced, and find it logged.
   */
  force?: boolean;
}

/**
 * What a record is, as its ledger entry says: `<version or ->|<order>|<1 or 0>`. The stored entry adds `|w` when a
 * write through the gateway logged it (`entryOf`).
 */
export const stateOf = (o: Observation): string =>
  flattened(`${o.version ?? '-'}|${o.order}|${o.version !== null && o.public ? 1 : 0}`);

/** Matches at once: its only use is that a regular expression's match flattens its subject in place. */
const FLATTENS = /^/;

/**
 * `s` as one flat string. A template literal's result is a tree of V8 cons strings (nine objects for a post's state)
 * that lives as long as the ledger entry: a site's 100k were 660k objects (20 MB) that every collection traced. A
 * match flattens the tree in place (about 40 ns), and the collector then keeps the flat copy alone (reading a
 * character does not: V8 walks the tree for it).
 */
function flattened(s: string): string {
  FLATTENS.test(s);
  return s;
}

/** The ledger entry an observation leaves: its state, marked `|w` when it came from a write (`force`). */
const entryOf = (o: Observation): string =>
  o.force && o.version !== null ? flattened(`${stateOf(o)}|w`) : stateOf(o);

/** A stored entry's state without the write mark, to compare with `stateOf`. */
export const stateOfEntry = (entry: string): string => entry.replace(/\|w$/, '');

export interface Decision {
  /** `null`: nothing to log, only the ledger entry to write (a write's own save another source logged first). */
  action: ChangeAction | null;
  wasPublic: boolean;
  /** The ledger entry after the change. */
  state: string;
}

/**
 * Whether an observation is a change to log, given the ledger's entry (`undefined`: never logged). The Redis log runs
 * the same rules in one script (src/changes/redis-log.ts); `test/cache/changes-log.test.ts` holds them to agree.
 * - A gone record is deleted once; a record never logged is logged deleted too (a reader may hold it from a sync).
 * - The same version is no change, unless a write through the gateway says it is (`force`) and the entry was a write's
 *   too: two saves through the gateway within one second. When another source logged that version first (another
 *   instance refetched the record on the write's invalidation, a poll read it), the write's own observation is the
 *   same save: only the entry is marked as a write's. (A save in wp-admin and one through the gateway within the same
 *   second that changes nothing the version holds is logged once.)
 * - A read older than the entry (by `order`) is stale and dropped; so is one no newer than a deletion (a poll that
 *   read the record just before it was deleted).
 */
export function decide(prev: string | undefined, o: Observation): Decision | null {
  const [pv, po = '', pp = '0', pw = ''] = prev === undefined ? [] : prev.split('|');
  const wasLive = pv !== undefined && pv !== '-';
  if (o.version === null) {
    if (pv === '-') return null;
    const order = o.order || po;
    return { action: 'deleted', wasPublic: wasLive && pp === '1', state: `-|${order}|0` };
  }
  if (pv === o.version) {
    if (!o.force) return null;
    if (pw !== 'w') return { action: null, wasPublic: pp === '1', state: entryOf(o) };
  }
  if (pv !== undefined && o.order !== '' && po !== '') {
    if (pv === '-' ? o.order <= po : o.order < po) return null;
  }
  return {
    action: wasLive ? 'updated' : 'created',
    wasPublic: wasLive && pp === '1',
    state: entryOf(o),
  };
}

const PLURAL: Record<ChangeKind, string> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
  category: 'categories',
  tag: 'tags',
};

/** A record's URL below an API root (`…/wp-json/calendar/events/v1`). */
export const restUrlOf = (apiRoot: string, kind: ChangeKind, id: number): string =>
  `${apiRoot}/${PLURAL[kind]}/${id}`;

/** The cache tags a change drops (the names of src/cache/tags.ts), given the taxonomies of categories and tags. */
export function tagsOf(kind: ChangeKind, id: number, taxonomy: Record<'category' | 'tag', string>): string[] {
  if (kind === 'category' || kind === 'tag') {
    return [`term:${taxonomy[kind]}:${id}`, 'list:term', 'list:event'];
  }
  return [`${kind}:${id}`, `list:${kind}`];
}

/** UTC now as WordPress writes `modified_gmt`. */
export const nowGmt = (now = new Date()): string => utcWallOf(now.getTime());

/** The change an observation and its decision make (without its place in the log). */
export function changeOf(
  o: Observation,
  d: Decision & { action: ChangeAction },
  ctx: { apiRoot: string; taxonomy: Record<'category' | 'tag', string>; now: Date },
): Change & { was_public: boolean } {
  return {
    kind: o.kind,
    id: o.id,
    action: d.action,
    modified_utc: d.action === 'deleted' || !o.order ? nowGmt(ctx.now) : o.order,
    rest_url: restUrlOf(ctx.apiRoot, o.kind, o.id),
    tags: tagsOf(o.kind, o.id, ctx.taxonomy),
    public: d.action !== 'deleted' && o.public,
    was_public: d.wasPublic,
  };
}
