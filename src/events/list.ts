// GET /events: validates filters, answers from the event index, then reads the page's records upstream.

import type { RequestContext } from '../context.ts';
import type { ArgsOf } from '../contract/args.ts';
import type { listEventsArgs } from '../contract/events.ts';
import type { Deps } from '../deps.ts';
import { resolveListDates } from '../events/dates.ts';
import { archivePageNotFound, invalidParams } from '../http/errors.ts';
import type { HandlerInput, HandlerResult } from '../http/handler.ts';
import { asGuesses } from '../http/password-guesses.ts';
import type { IndexQuery } from '../index/query.ts';
import type { TaxonomySource } from '../mapping/schema.ts';
import { canSeeProtected, isProtected } from '../serialize/common.ts';
import { serializeEvent } from '../serialize/index.ts';
import { can } from '../wp/caller.ts';
import { asCaller } from '../wp/client.ts';
import { withStoredExcerpt } from './excerpt.ts';
import { postListResult, readPage } from './page.ts';
import { relatedOf } from './related.ts';
import { listVisibility, visibleTo } from './visibility.ts';

type Args = ArgsOf<typeof listEventsArgs>;

async function termIds(
  deps: Deps,
  tax: TaxonomySource | undefined,
  name: string,
  values: string[] | undefined,
  lang: string,
) {
  if (!values?.length) return undefined;
  if (!tax)
    throw invalidParams({ [name]: `${name} cannot filter: this site's mapping has no such taxonomy.` });
  const { ids, unknown } = await deps.terms.resolve(tax, lang, values);
  if (unknown.length)
    throw invalidParams({ [name]: `${name} has no term with the id or slug ${unknown.join(', ')}.` });
  return deps.terms.withChildren(tax, lang, ids);
}

/**
 * Every id must be a venue/organizer the caller may read: asked with the caller's own credentials, so an id of
 * someone's draft is as unknown as one that does not exist (no probing for drafts through a filter's 400).
 */
async function checkLinked(
  deps: Deps,
  ctx: RequestContext,
  kind: 'venue' | 'organizer',
  name: string,
  ids: number[] | undefined,
) {
  if (!ids?.length) return;
  const caller = await deps.callers.resolve(ctx);
  const found = await deps.wp.list<{ id: number }>({
    path: `/wp/v2/${deps.mapping[kind].restBase}`,
    query: {
      include: ids,
      per_page: 100,
      _fields: 'id',
      status: can(caller, deps.site.caps[kind] ?? {}, 'edit_posts') ? 'any' : undefined,
    },
    ...asCaller(ctx),
  });
  const known = new Set(found.items.map((x) => x.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length)
    throw invalidParams({ [name]: `${name} has no ${kind} with the id ${missing.join(', ')}.` });
}

export async function listEvents(
  deps: Deps,
  input: HandlerInput<typeof listEventsArgs>,
): Promise<HandlerResult> {
  const { ctx, site } = input;
  const a: Args = input.args;
  const lang = ctx.language;
  if (a.ticketed === true) {
    throw invalidParams(
      { ticketed: 'Event Tickets is not active on this site.' },
      {
        ticketed: {
          code: 'event-tickets-not-active',
          message: 'Event Tickets is not active on this site.',
          data: { status: 400 },
        },
      },
    );
  }
  const dates = resolveListDates(
    {
      start_date: a.start_date,
      end_date: a.end_date,
      starts_before: a.starts_before,
      starts_after: a.starts_after,
      ends_before: a.ends_before,
      ends_after: a.ends_after,
      strict_dates: a.strict_dates as boolean | undefined,
      include: a.include,
    },
    { timezone: deps.site.timezone },
    deps.now(),
  );
  if (!dates.ok) throw dates.error;
  const [visibility, categories, tags] = await Promise.all([
    listVisibility(deps, ctx, 'event', a.status),
    termIds(deps, deps.mapping.event.categories, 'categories', a.categories, lang),
    termIds(deps, deps.mapping.event.tags, 'tags', a.tags, lang),
    checkLinked(deps, ctx, 'venue', 'venue', a.venue),
    checkLinked(deps, ctx, 'organizer', 'organizer', a.organizer),
  ]);
  const index = await deps.indexes.forLanguage(lang);
  // A parent the caller may not read is as unknown as one that does not exist: no probing for drafts.
  const parent = a.post_parent === undefined ? undefined : index.get(a.post_parent);
  if (a.post_parent !== undefined && !(parent && visibleTo(visibility)(parent.status, parent.author)))
    throw invalidParams({ post_parent: 'post_parent: no event with this id that you may read.' });

  const page = a.page ?? 1;
  const perPage = a.per_page ?? 10;
  const q: IndexQuery = {
    statuses: visibility.statuses,
    ownStatuses: visibility.ownStatuses,
    author: visibility.author,
    dates: dates.filter,
    search: a.search,
    // WordPress searches password-protected posts only for logged-in callers.
    searchesProtected: ctx.credentials !== undefined,
    categories,
    tags,
    venue: a.venue,
    organizer: a.organizer,
    featured: a.featured,
    include: a.include,
    parent: a.post_parent,
    page,
    perPage,
  };
  const result = index.query(q);
  if (page > 1 && result.ids.length === 0) {
    throw archivePageNotFound('event');
  }
  const password = input.args.password;
  // The password is tried at every protected event of the page (`include=a,b,c` picks them): one guess at each,
  // throttled per client; those it did not open stay counted.
  const tried = password === undefined ? [] : result.ids.filter((id) => index.get(id)?.protected);
  const read = await asGuesses(
    deps.passwordGuesses,
    ctx.client,
    tried.map((id) => `event:${id}`),
    () =>
      readPage(deps, ctx, 'event', result.ids, {
        statuses: visibility.editor ? [...visibility.statuses, ...visibility.ownStatuses] : undefined,
        password,
      }),
    {
      of: (page) =>
        page.filter((p) => isProtected(p) && !canSeeProtected(p, password)).map((p) => `event:${p.id}`),
    },
  );
  const posts = read.map((p) => withStoredExcerpt(p, index.get(p.id)?.hasExcerpt));
  const related = await relatedOf(deps, ctx, posts);
  const events = posts.map((p) =>
    serializeEvent(p, related, {
      mapping: deps.mapping,
      site,
      context: 'list',
      password,
    }),
  );

  const echo = {
    per_page: perPage,
    start_date: dates.echo.start_date,
    end_date: dates.echo.end_date,
    starts_before: dates.echo.starts_before,
    starts_after: dates.echo.starts_after,
    ends_before: dates.echo.ends_before,
    ends_after: dates.echo.ends_after,
    strict_dates: a.strict_dates === true ? 'true' : undefined,
    search: a.search,
    categories: a.categories,
    tags: a.tags,
    venue: a.venue,
    organizer: a.organizer,
    featured: a.featured === undefined ? undefined : a.featured ? 1 : 0,
    status: visibility.echo,
    include: a.include,
    post_parent: a.post_parent,
    multilang_language: input.args.multilang_language,
  };
  return postListResult(site.apiRoot, 'events', events, echo, page, result.total, result.totalPages);
}
