// GET /venues and /organizers: filters over the catalog and the event index, then the page read as the caller.
import type { ArgsOf } from '../contract/args.ts';
import type { LinkedKind, linkedListArgs } from '../contract/linked.ts';
import type { Deps } from '../deps.ts';
import { eventQueryOf, VISIBILITY_ONLY } from '../events/filters.ts';
import { postListResult, readPage } from '../events/page.ts';
import { openedBy } from '../events/protected.ts';
import { listVisibility, readableOf, visibleTo } from '../events/visibility.ts';
import { withDistance } from '../geo/order.ts';
import { byDistance, type GeoArgs, venuesNear } from '../geo/venues.ts';
import { archivePageNotFound, invalidParams } from '../http/errors.ts';
import type { HandlerInput, HandlerResult } from '../http/handler.ts';
import { ANY_EVENT_STATUSES, HAS_EVENTS_STATUSES } from '../index/facets.ts';
import { seenInFull } from '../index/query.ts';
import { asGuesses } from '../passwords/guesses.ts';
import { canSeeProtected, isProtected } from '../serialize/common.ts';
import type { LinkedFacets } from './catalog.ts';
import { mediaOf, PLURAL, serialize } from './read.ts';
import { linkedIdsOf, usedBy, usedByUpcoming } from './usage.ts';

type Args = ArgsOf<ReturnType<typeof linkedListArgs>>;

/** Newest publication date first, then the higher id (WP_Query's `date DESC` keeps insertion order on ties). */
export const byDateDesc = (a: LinkedFacets, b: LinkedFacets): number =>
  a.date < b.date ? 1 : a.date > b.date ? -1 : b.id - a.id;

/** The facets that pass every filter, ordered. Pure: the sets come from the event index. */
export function filterLinked(
  items: Iterable<LinkedFacets>,
  f: {
    /** Whether the caller may read a record of this status and author (src/events/visibility.ts). */
    visible: (status: string, author: number) => boolean;
    /** Matches a protected record by the fields its password does not blank only (its name), whoever asks. */
    search?: string;
    only?: Set<number>;
    exclude?: Set<number>;
  },
): LinkedFacets[] {
  const needle = f.search?.toLowerCase();
  const out: LinkedFacets[] = [];
  for (const x of items) {
    if (!f.visible(x.status, x.author)) continue;
    if (f.only && !f.only.has(x.id)) continue;
    if (f.exclude?.has(x.id)) continue;
    if (needle !== undefined) {
      const text = x.protected ? x.openText : x.searchText;
      if (!text.includes(needle)) continue;
    }
    out.push(x);
  }
  return out.sort(byDateDesc);
}

const intersect = (a: Set<number> | undefined, b: Set<number>): Set<number> =>
  a ? new Set([...a].filter((x) => b.has(x))) : b;

export async function listLinked(
  deps: Deps,
  kind: LinkedKind,
  input: HandlerInput<ReturnType<typeof linkedListArgs>>,
): Promise<HandlerResult> {
  const { ctx, site } = input;
  const a: Args = input.args;
  const [visibility, index, catalog] = await Promise.all([
    listVisibility(deps, ctx, kind, a.status),
    deps.indexes.forLanguage(ctx.language),
    deps.catalog.all(kind, ctx.language),
  ]);
  let only: Set<number> | undefined;
  let exclude: Set<number> | undefined;
  // Events count for has_events / only_with_upcoming only when this caller may read them: the events' own status
  // filter says which (events/filters.ts), with no other list filter and no date window.
  const { visibility: events } = await eventQueryOf(deps, ctx, {}, VISIBILITY_ONLY);
  const password = a.password;
  if (a.event !== undefined) {
    const event = index.get(a.event);
    if (!event || !visibleTo(events)(event.status, event.author))
      throw invalidParams({ event: `event: no event with the id ${a.event}.` });
    // A protected event's venue and organizers are blanked for whoever does not see it in full: none are its.
    const seen =
      seenInFull(events.seesProtected, event) ||
      (password !== undefined &&
        (await openedBy(deps, ctx, index, [event.id], events, password)).includes(event.id));
    only = new Set(seen ? linkedIdsOf(kind, event) : []);
  }
  // A protected event's links count only for who sees them without a password (its editors): a `password` is not
  // tried here, as it would be at every protected event of the site, each a guess.
  if (a.has_events !== undefined) {
    const used = usedBy(index, kind, readableOf(events, HAS_EVENTS_STATUSES));
    if (a.has_events) only = intersect(only, used);
    else exclude = used;
  }
  if (a.only_with_upcoming === true)
    only = intersect(
      only,
      usedByUpcoming(index, kind, readableOf(events, ANY_EVENT_STATUSES), deps.now(), deps.site.timezone),
    );

  // Venues: the geolocation filters, on the coordinates this caller sees (src/geo/).
  const near =
    kind === 'venue'
      ? venuesNear(a as GeoArgs, catalog, (v) => seenInFull(visibility.seesProtected, v))
      : undefined;
  if (near?.only) only = intersect(only, near.only);
  if (near?.exclude) exclude = new Set([...(exclude ?? []), ...near.exclude]);
  let matches = filterLinked(catalog.values(), {
    visible: visibleTo(visibility),
    search: a.search,
    only,
    exclude,
  });
  if (near?.byDistance) matches = byDistance(matches, near.distances);
  const page = a.page ?? 1;
  const perPage = a.per_page ?? 10;
  const total = matches.length;
  const totalPages = Math.ceil(total / perPage);
  const ids = matches.slice((page - 1) * perPage, page * perPage).map((x) => x.id);
  if (page > 1 && ids.length === 0) {
    throw archivePageNotFound(kind);
  }
  // With a `password`, WordPress renders the protected records it opens (as on an event list); trying it at each
  // protected record of the page is a guess at each, throttled per client.
  const statuses = visibility.editor ? [...visibility.statuses, ...visibility.ownStatuses] : undefined;
  const tried = password === undefined ? [] : ids.filter((id) => catalog.get(id)?.protected);
  const posts = await asGuesses(
    deps.passwordGuesses,
    ctx.client,
    tried.map((id) => `${kind}:${id}`),
    () => readPage(deps, ctx, kind, ids, { statuses, password }),
    {
      of: (read) =>
        read.filter((p) => isProtected(p) && !canSeeProtected(p, password)).map((p) => `${kind}:${p.id}`),
    },
  );
  const media = await mediaOf(deps, ctx, posts);
  const records = posts.map((p) =>
    withDistance(
      serialize(deps, kind, p, media, site, 'list', { password, stored: catalog.get(p.id) }),
      near?.distances.get(p.id),
    ),
  );

  const echo = {
    per_page: perPage,
    search: a.search,
    event: a.event,
    has_events: a.has_events === undefined ? undefined : a.has_events ? 1 : 0,
    only_with_upcoming: a.only_with_upcoming ? 1 : undefined,
    status: visibility.echo,
    ...near?.echo,
    multilang_language: a.multilang_language,
  };
  return postListResult(site.apiRoot, PLURAL[kind], records, echo, page, total, totalPages);
}
