// GET /events: the filters' index query (events/filters.ts), one page of it, then the page's records upstream.
import type { listEventsArgs } from '../contract/events.ts';
import type { Deps } from '../deps.ts';
import { pageByDistance, withDistance } from '../geo/order.ts';
import { archivePageNotFound } from '../http/errors.ts';
import type { HandlerInput, HandlerResult } from '../http/handler.ts';
import { serializeEvent } from '../serialize/index.ts';
import { eventQueryOf } from './filters.ts';
import { postListResult } from './page.ts';
import { readEvents } from './read-events.ts';
import { relatedOf } from './related.ts';

export async function listEvents(
  deps: Deps,
  input: HandlerInput<typeof listEventsArgs>,
): Promise<HandlerResult> {
  const { ctx, site } = input;
  const { query, echo, visibility, index, near } = await eventQueryOf(deps, ctx, input.args);
  const page = input.args.page ?? 1;
  const perPage = input.args.per_page ?? 10;
  const result = near?.byDistance
    ? pageByDistance(index, { ...query, page, perPage }, near.distances)
    : index.query({ ...query, page, perPage });
  if (page > 1 && result.ids.length === 0) {
    throw archivePageNotFound('event');
  }
  const password = input.args.password;
  const posts = await readEvents(deps, ctx, index, result.ids, visibility, password);
  const related = await relatedOf(deps, ctx, posts);
  const events = posts.map((p) =>
    withDistance(
      serializeEvent(p, related, {
        mapping: deps.mapping,
        site,
        context: 'list',
        password,
      }),
      near?.distances.get(index.venueOf(p.id)),
    ),
  );

  const links = { per_page: perPage, ...echo, multilang_language: input.args.multilang_language };
  return postListResult(site.apiRoot, 'events', events, links, page, result.total, result.totalPages);
}
