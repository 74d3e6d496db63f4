// GET /events: the filters' index query (events/filters.ts), one page of it with one item per occurrence of a series
// (src/index/occurrences/list.ts), then the page's records upstream.
import type { listEventsArgs } from '../contract/events.ts';
import type { Deps } from '../deps.ts';
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
  const { query, echo, visibility, index } = await eventQueryOf(deps, ctx, input.args);
  const page = input.args.page ?? 1;
  const perPage = input.args.per_page ?? 10;
  const result = listOccurrences(index, { ...query, page, perPage });
  if (page > 1 && result.items.length === 0) {
    throw archivePageNotFound('event');
  }
  const password = input.args.password;
  const events = await occurrenceRecords(deps, ctx, index, result.items, visibility, password, site);
  const links = { per_page: perPage, ...echo, multilang_language: input.args.multilang_language };
  return postListResult(site.apiRoot, 'events', events, links, page, result.total, result.totalPages);
}
