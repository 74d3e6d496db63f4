// GET /events.ics and /events/{id}.ics: the events a list or a read would show, for the iCalendar renderer.
//
// The feed takes the list's filters and visibility (events/filters.ts) without paging: every matching event in the
// window, up to the configured cap, read as the caller as a list page is (events/read-events.ts). A series is sent
// once, when any of its occurrences is in the window (src/index/occurrences/feed.ts).
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import type { HandlerResult } from '../http/handler.ts';
import { inSlices } from '../index/compaction.ts';
import { feedPosts } from '../index/occurrences/feed.ts';
import type { CalendarInfo } from '../render/ical.ts';
import { type SiteInfo, serializeEvent } from '../serialize/index.ts';
import { type EventListArgs, eventQueryOf } from './filters.ts';
import { SERIALIZE_MS } from './occurrences/records.ts';
import { readEventAnswer } from './read.ts';
import { readEvents } from './read-events.ts';
import { relatedOf } from './related.ts';

/** What a feed route hands the renderer: the records as JSON shows them to this caller, and the calendar's name. */
export interface FeedBody {
  events: Record<string, unknown>[];
  calendar: CalendarInfo;
}

/** Events a feed holds at most unless FEED_MAX_EVENTS says otherwise. */
export const FEED_MAX_EVENTS = 1000;

/** The calendar's name: the site's, then what the feed is narrowed to (as `rest_url` echoes it). */
function calendarOf(deps: Deps, site: SiteInfo, narrowedTo: string[]): CalendarInfo {
  const host = new URL(site.home).host;
  const name = [deps.site.name || host, ...narrowedTo].join(' — ');
  return { name, host, refreshSeconds: deps.feed?.refreshSeconds ?? 0 };
}

/** What a list's arguments narrow it to, in words a calendar app can show: search, categories, tags. */
function narrowing(args: EventListArgs): string[] {
  const out: string[] = [];
  if (args.search) out.push(args.search);
  for (const list of [args.categories, args.tags]) if (list?.length) out.push(list.join(', '));
  return out;
}

export async function eventsFeed(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  args: EventListArgs,
): Promise<HandlerResult> {
  const { query, visibility, index } = await eventQueryOf(deps, ctx, args);
  const cap = deps.feed?.maxEvents ?? FEED_MAX_EVENTS;
  // A series once (its master and overrides) when any of its occurrences is in the window.
  const result = feedPosts(index, query, cap);
  const posts = await readEvents(deps, ctx, index, result.ids, visibility, args.password);
  const related = await relatedOf(deps, ctx, posts);
  const options = { mapping: deps.mapping, site, context: 'list' as const, password: args.password };
  // Serialised a slice at a time: thousands of records in one go would hold the event loop for a long while.
  const events: Record<string, unknown>[] = [];
  await inSlices(posts, SERIALIZE_MS, (p) => events.push(serializeEvent(p, related, options)), true);
  const body: FeedBody = { events, calendar: calendarOf(deps, site, narrowing(args)) };
  // The total says how many matched when the cap cut the feed short.
  return { body, headers: { 'X-TEC-Total': String(result.total) } };
}

/** One event as a calendar of one: what "Add to calendar" links to. */
export async function eventFeed(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  id: number,
  password: string | undefined,
): Promise<HandlerResult> {
  // An occurrence's id is that occurrence alone: its series' UID and its RECURRENCE-ID (src/render/ical-series.ts).
  const { body: event, tags } = await readEventAnswer(deps, ctx, site, id, password);
  const title = typeof event.title === 'string' ? [event.title] : [];
  const body: FeedBody = { events: [event], calendar: calendarOf(deps, site, title) };
  return { body, ...(tags ? { tags } : {}) };
}
