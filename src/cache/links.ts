// Which lists of linked records an event change can alter: the `links:<kind>` tags a write or an index change drops.
import type { IndexedEvent } from '../index/columns/rows.ts';
import { tag } from './tags.ts';

/** What of an event the venue, organizer and term lists depend on. */
export type Linkable = Pick<
  IndexedEvent,
  'status' | 'start' | 'end' | 'hidden' | 'venue' | 'organizers' | 'categories' | 'tags'
>;

/** Every links tag: for a change whose before or after is unknown. */
export const ALL_LINK_TAGS: readonly string[] = [
  tag.links('venue'),
  tag.links('organizer'),
  tag.links('category'),
  tag.links('tag'),
];

/**
 * The links tags of one event's change (`before` undefined: a create; `after` undefined: a delete). A venue list's
 * `has_events` / `only_with_upcoming` answer depends on which venues events link to, and on those events' status and
 * dates (upcoming, readable); the same for organizers; category and tag lists show counts and hide empty terms,
 * which follow the events' categories or tags and status (each taxonomy its own: a category added leaves every tag
 * list cached). So a kind's tag is dropped when the event links a record of it, before or after, and
 * either the links or the status, dates or listing of the event changed. An edit of the title alone drops none. Pure.
 */
export function linkTags(before: Linkable | undefined, after: Linkable | undefined): string[] {
  const out: string[] = [];
  const state = (e: Linkable | undefined) => (e ? [e.status, e.start, e.end, e.hidden] : null);
  const stateChanged = JSON.stringify(state(before)) !== JSON.stringify(state(after));
  const kinds: Array<[string, (e: Linkable) => number[]]> = [
    ['venue', (e) => (e.venue === null ? [] : [e.venue])],
    ['organizer', (e) => e.organizers],
    ['category', (e) => e.categories],
    ['tag', (e) => e.tags],
  ];
  for (const [kind, linked] of kinds) {
    const a = before ? linked(before) : [];
    const b = after ? linked(after) : [];
    if (a.length === 0 && b.length === 0) continue;
    if (stateChanged || a.join(',') !== b.join(',')) out.push(tag.links(kind));
  }
  return out;
}
