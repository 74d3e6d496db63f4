// The element's requests, through the typed client only: one list per visible range, paged as the API pages.
import type { CalendarClient, Event, FeedQuery } from '@calendar-gateway/client';
import { addDays, type Day } from './dates.ts';

/** The filters a view is narrowed by, as the URL and the attributes write them. */
export interface Filters {
  /** Category slugs or ids, comma-separated. */
  categories?: string;
  /** Tag slugs or ids, comma-separated. */
  tags?: string;
  /** Venue ids, comma-separated. */
  venue?: string;
  search?: string;
}

/** The largest page the API serves (`per_page` is capped at 50): the fewest requests for a range. */
export const PAGE = 50;
/** A page of the upcoming list. */
export const LIST_PAGE = 20;

const csv = (v: string | undefined) =>
  v
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The list and feed arguments of some filters; an empty filter sends nothing. */
export function filterQuery(f: Filters): FeedQuery {
  const q: FeedQuery = {};
  const categories = csv(f.categories);
  const tags = csv(f.tags);
  const venue = csv(f.venue)
    ?.map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  if (categories?.length) q.categories = categories;
  if (tags?.length) q.tags = tags;
  if (venue?.length) q.venue = venue;
  if (f.search?.trim()) q.search = f.search.trim();
  return q;
}

/**
 * The events overlapping the days `first` to `last` (site days: the API widens bare dates to whole days): those
 * ending after the day before `first` and starting before the end of `last`. `margin` days more on each side when
 * the view is in another zone than the site's, so that events moved across midnight are there too.
 */
export async function eventsBetween(
  client: CalendarClient,
  first: Day,
  last: Day,
  filters: Filters,
  margin = 0,
): Promise<Event[]> {
  const events: Event[] = [];
  const query = {
    ...filterQuery(filters),
    ends_after: addDays(first, -1 - margin),
    starts_before: addDays(last, margin),
    per_page: PAGE,
  };
  for await (const e of client.all('/events', query)) events.push(e);
  return events;
}

/** One page of upcoming events: those ending on `from` or later, in start order. */
export async function upcoming(
  client: CalendarClient,
  from: Day,
  filters: Filters,
  page: number,
): Promise<{ events: Event[]; more: boolean }> {
  const answer = await client.list('/events', {
    ...filterQuery(filters),
    ends_after: addDays(from, -1),
    per_page: LIST_PAGE,
    page,
  });
  return { events: answer.items, more: page < answer.totalPages };
}

/** Google Calendar's "add by URL" link for a feed (it takes the webcal:// form). */
export const googleSubscribeUrl = (webcal: string): string =>
  `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`;
