// Which venues/organizers events use, answered from the event index (all events, not a first page).
import type { LinkedKind } from '../contract/linked.ts';
import { fromUtc } from '../dates/index.ts';
import { utcWallOf } from '../dates/utc-wall.ts';
import type { IndexedEvent } from '../index/columns/rows.ts';
import type { EventIndex } from '../index/event-index.ts';
import { floatOfWall } from '../index/occurrences/expand.ts';
import type { DateBounds, SeesProtected } from '../index/query.ts';

/** The venue or organizer ids one event links to. */
export function linkedIdsOf(kind: LinkedKind, f: Pick<IndexedEvent, 'venue' | 'organizers'>): number[] {
  if (kind === 'venue') return f.venue === null ? [] : [f.venue];
  return f.organizers;
}

/** Which events count: statuses anyone's, and statuses counted only on the caller's own events. */
export interface Readable {
  statuses: string[];
  ownStatuses?: string[];
  author?: number;
  /** The protected events whose links the caller sees (every list blanks the others' venue and organizers). */
  seesProtected?: SeesProtected;
}

/**
 * Ids of every venue/organizer linked to at least one event the caller may read, within the date bounds: a protected
 * event's links count only when the caller sees them.
 */
export function usedBy(
  index: EventIndex,
  kind: LinkedKind,
  readable: Readable,
  dates?: DateBounds,
): Set<number> {
  return index.linkedTo(kind, { ...readable, dates, readsLinks: true, page: 1, perPage: 1 });
}

/** `now` as the site's wall clock (`Y-m-d H:i:s`), the clock event starts are stored in. */
export function siteNow(now: Date, timezone: string): string {
  return fromUtc(utcWallOf(now.getTime()), timezone);
}

/** Ids linked to an event that starts now or later and that the caller may read (TEC's upcoming list). */
export function usedByUpcoming(
  index: EventIndex,
  kind: LinkedKind,
  readable: Readable,
  now: Date,
  timezone: string,
): Set<number> {
  const from = siteNow(now, timezone);
  const used = usedBy(index, kind, readable, { startGte: from });
  // A series is indexed at its first date: one that began before now counts when an occurrence is still to come.
  const store = index.repeats;
  if (!store.seriesCount) return used;
  const fromFloat = floatOfWall(from);
  const ongoing: number[] = [];
  for (const s of store.allSeries()) if (store.startsWithin(s.id, fromFloat)) ongoing.push(s.id);
  if (!ongoing.length) return used;
  for (const id of index.linkedTo(kind, {
    ...readable,
    readsLinks: true,
    include: ongoing,
    page: 1,
    perPage: 1,
  })) {
    used.add(id);
  }
  return used;
}
