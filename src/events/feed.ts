// GET /events.ics and /events/{id}.ics: the events a list or a read would show, for the iCalendar renderer.
//
// The feed takes the list's filters and visibility (events/filters.ts) without paging: every matching event in the
// window, up to the configured cap, read as the caller as a list page is (events/read-events.ts). A series is sent
// once, when any of its occurrences is in the window (src/index/occurrences/feed.ts).

import { recordTags } from '../cache/tags.ts';
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import type { HandlerResult } from '../http/handler.ts';
import { inSlices } from '../index/compaction.ts';
import { feedPosts } from '../index/occurrences/feed.ts';
import { readField } from '../mapping/codec.ts';
import { afterPoll } from '../pace/turns.ts';
import type { CalendarInfo, FeedEvents } from '../render/ical.ts';
import { type SiteInfo, serializeEvent } from '../serialize/index.ts';
import type { WpPost } from '../wp/types.ts';
import { type EventListArgs, eventQueryOf } from './filters.ts';
import { SERIALIZE_MS } from './occurrences/records.ts';
import { readEventAnswer } from './read.ts';
import { readEvents } from './read-events.ts';
import { relatedOf } from './related.ts';

/**
 * What a feed route hands the renderer: the records as JSON shows them to this caller, each made as it is rendered
 * (src/render/ical.ts `FeedEvents`), and the calendar's name. Not `events`: the cache stage would read that as the
 * records the answer shows; a feed's tags come with its result instead.
 */
export interface FeedBody {
  feed: FeedEvents;
  calendar: CalendarInfo;
}

type Json = Record<string, unknown>;

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

/**
 * A feed's events, made by `make` when the renderer asks for each, and the tags the cache stage reads from a list's
 * records (src/cache/tags.ts), each record's added as it is made: the array is filled while the render stage runs,
 * which ends before the cache stage reads a result's tags.
 */
function madeAsRendered(
  length: number,
  masters: readonly Json[],
  make: (i: number) => Json,
): { feed: FeedEvents; tags: string[] } {
  const tags: string[] = [];
  const seen = new Set<string>();
  const own = new Set<string>();
  const at = (i: number): Json => {
    const record = make(i);
    own.clear();
    recordTags('event', record, own);
    for (const t of own)
      if (!seen.has(t)) {
        seen.add(t);
        tags.push(t);
      }
    return record;
  };
  return { feed: { length, masters, at }, tags };
}

export async function eventsFeed(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  args: EventListArgs,
): Promise<HandlerResult> {
  const { query, visibility, index } = await eventQueryOf(deps, ctx, args);
  const cap = deps.feed?.maxEvents ?? FEED_MAX_EVENTS;
  // The query of thousands in a turn of its own, after the requests that arrived while this one was parsed (a first
  // cold feed's query, 8.7 ms, ran in the request's own turn of 15 ms).
  await afterPoll();
  // A series once (its master and overrides) when any of its occurrences is in the window.
  const result = feedPosts(index, query, cap);
  const posts = await readEvents(deps, ctx, index, result.ids, visibility, args.password);
  const related = await relatedOf(deps, ctx, posts);
  const options = { mapping: deps.mapping, site, context: 'list' as const, password: args.password };
  const make = (p: WpPost) => serializeEvent(p, related, options);
  // The series posts first, kept until the end (their overrides' RECURRENCE-IDs read them); the others are made by
  // the renderer's slices, one at a time, and dropped once rendered.
  const rule = deps.mapping.event.fields.recurrence;
  const masters = new Map<number, Json>();
  await inSlices(posts, SERIALIZE_MS, (p) => {
    if (rule && readField(p, rule)) masters.set(p.id, make(p));
  });
  const { feed, tags } = madeAsRendered(posts.length, [...masters.values()], (i) => {
    const p = posts[i]!;
    return masters.get(p.id) ?? make(p);
  });
  const body: FeedBody = { feed, calendar: calendarOf(deps, site, narrowing(args)) };
  // The total says how many matched when the cap cut the feed short.
  return { body, tags, headers: { 'X-TEC-Total': String(result.total) } };
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
  const made = madeAsRendered(1, [event], () => event);
  // The same array: the event's own tags join it as it renders.
  made.tags.push(...(tags ?? []));
  return {
    body: { feed: made.feed, calendar: calendarOf(deps, site, title) } satisfies FeedBody,
    tags: made.tags,
  };
}
