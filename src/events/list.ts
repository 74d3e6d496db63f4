// GET /events: the filters' index query (events/filters.ts), one page of it with one item per occurrence of a series
// (src/index/occurrences/list.ts), then the page's records upstream.
import type { listEventsArgs } from '../contract/events.ts';
import type { Deps } from '../deps.ts';
import { pageByDistance, withDistance } from '../geo/order.ts';
import { archivePageNotFound } from '../http/errors.ts';
import type { HandlerInput, HandlerResult } from '../http/handler.ts';
import { listOccurrences } from '../index/occurrences/list.ts';
import { eventQueryOf } from './filters.ts';
import { occurrenceRecords } from './occurrences/records.ts';
import { postListResult } from './page.ts';

export async function listEvents(
  deps: Deps,
  input: HandlerInput<typeof listEventsArgs>,
): Promise<HandlerResult> {
  const { ctx, site } = input;
  const { query, echo, visibility, index, near } = await eventQueryOf(deps, ctx, input.args);
  const page = input.args.page ?? 1;
  const perPage = input.args.per_page ?? 10;
  // Ordered by distance: without series the index orders and pages (`nearest`); with series every match is listed
  // (a point's matches are the events of the venues in reach), then sorted by the venue of the post each item is
  // read from (an override's own venue) and cut.
  const byDistance = near?.byDistance === true && index.repeats.seriesCount > 0;
  const nearest = near?.byDistance && !byDistance ? near.distances : undefined;
  const all = listOccurrences(index, {
    ...query,
    nearest,
    page: byDistance ? 1 : page,
    perPage: byDistance ? Number.MAX_SAFE_INTEGER : perPage,
  });
  const kmOf = (post: number) => near?.distances.get(index.venueOf(post));
  const result = byDistance ? pageByDistance(all, page, perPage, (item) => kmOf(item.post)) : all;
  if (page > 1 && result.items.length === 0) {
    throw archivePageNotFound('event');
  }
  const password = input.args.password;
  const records = await occurrenceRecords(deps, ctx, index, result.items, visibility, password, site);
  const postOf = new Map(result.items.map((item) => [item.id, item.post]));
  const events = near ? records.map((r) => withDistance(r, kmOf(postOf.get(r.id as number) ?? 0))) : records;
  const links = { per_page: perPage, ...echo, multilang_language: input.args.multilang_language };
  return postListResult(site.apiRoot, 'events', events, links, page, result.total, result.totalPages);
}
