// The /events filters as descriptors: each names its arguments, adds its part of the index query, and says what
// `rest_url` echoes. One function turns parsed arguments into an index query for /events, its feed and the venues'
// and organizers' `has_events`, so a filter added here filters all of them alike.
import type { RequestContext } from '../context.ts';
import type { ArgsOf } from '../contract/args.ts';
import type { listEventsArgs } from '../contract/events.ts';
import { resolveListDates } from '../dates/index.ts';
import type { Deps } from '../deps.ts';
import { geoEcho, type Near, pointOf, venueSetsOf } from '../geo/near.ts';
import { invalidParams } from '../http/errors.ts';
import type { EventIndex } from '../index/event-index.ts';
import type { IndexQuery } from '../index/query.ts';
import type { TaxonomySource } from '../mapping/schema.ts';
import { can } from '../wp/caller.ts';
import { asCaller } from '../wp/client.ts';
import { withPassword } from './protected.ts';
import { listVisibility, type Visibility, visibleTo } from './visibility.ts';

export type EventListArgs = ArgsOf<typeof listEventsArgs>;
type ArgName = keyof EventListArgs;

/** An index query without its page: what a list, a feed or `has_events` asks of the event index. */
export type EventQuery = Omit<IndexQuery, 'page' | 'perPage'>;

/** What a filter reads: the request, its parsed arguments and, worked out once, who may read what. */
export interface FilterEnv {
  deps: Deps;
  ctx: RequestContext;
  args: EventListArgs;
  visibility: Promise<Visibility>;
  index: Promise<EventIndex>;
}

/** A filter's share of the query and of `rest_url`'s echo (its keys in the order the echo lists them). */
interface Part {
  query?: Partial<EventQuery>;
  echo?: Record<string, unknown>;
  /** A point's query: the venues in reach with their distance (src/geo/), for `distance_km` and the order. */
  near?: Near;
}

export interface EventFilter {
  /** The arguments it reads (a test holds that every list argument is some filter's, or named as no filter's). */
  args: readonly ArgName[];
  /** Its part of the query; throws the 400 that names its argument. */
  apply(env: FilterEnv): Part | Promise<Part>;
}

/** List arguments that filter nothing: paging, the password that unblanks records, the language, accepted no-ops. */
export const NOT_FILTERS: readonly ArgName[] = ['page', 'per_page', 'password', 'multilang_language'];

async function termIds(env: FilterEnv, tax: TaxonomySource | undefined, name: string, values?: string[]) {
  if (!values?.length) return undefined;
  if (!tax)
    throw invalidParams({ [name]: `${name} cannot filter: this site's mapping has no such taxonomy.` });
  const { ids, unknown } = await env.deps.terms.resolve(tax, env.ctx.language, values);
  if (unknown.length)
    throw invalidParams({ [name]: `${name} has no term with the id or slug ${unknown.join(', ')}.` });
  return env.deps.terms.withChildren(tax, env.ctx.language, ids);
}

const terms = (name: 'categories' | 'tags'): EventFilter => ({
  args: [name],
  async apply(env) {
    const ids = await termIds(env, env.deps.mapping.event[name], name, env.args[name]);
    return { query: { [name]: ids }, echo: { [name]: env.args[name] } };
  },
});

/**
 * Every id must be a venue/organizer the caller may read: asked with the caller's own credentials, so an id of
 * someone's draft is as unknown as one that does not exist (no probing for drafts through a filter's 400).
 */
const linked = (kind: 'venue' | 'organizer'): EventFilter => ({
  args: [kind],
  async apply({ deps, ctx, args }) {
    const ids = args[kind];
    if (ids?.length) {
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
        throw invalidParams({ [kind]: `${kind} has no ${kind} with the id ${missing.join(', ')}.` });
    }
    return { query: { [kind]: ids }, echo: { [kind]: ids } };
  },
});

const ticketed: EventFilter = {
  args: ['ticketed'],
  apply({ args }) {
    if (args.ticketed !== true) return {};
    const message = 'Event Tickets is not active on this site.';
    throw invalidParams(
      { ticketed: message },
      { ticketed: { code: 'event-tickets-not-active', message, data: { status: 400 } } },
    );
  },
};

const dates: EventFilter = {
  args: [
    'start_date',
    'end_date',
    'starts_before',
    'starts_after',
    'ends_before',
    'ends_after',
    'strict_dates',
  ],
  apply({ deps, args: a }) {
    const d = resolveListDates(
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
    if (!d.ok) throw d.error;
    const e = d.echo;
    return {
      query: { dates: d.filter },
      echo: {
        start_date: e.start_date,
        end_date: e.end_date,
        starts_before: e.starts_before,
        starts_after: e.starts_after,
        ends_before: e.ends_before,
        ends_after: e.ends_after,
        strict_dates: a.strict_dates === true ? 'true' : undefined,
      },
    };
  },
};

const search: EventFilter = {
  args: ['search'],
  // WordPress searches password-protected posts only for logged-in callers.
  apply: ({ args, ctx }) => ({
    query: { search: args.search, searchesProtected: ctx.credentials !== undefined },
    echo: { search: args.search },
  }),
};

const featured: EventFilter = {
  args: ['featured'],
  apply: ({ args: { featured: f } }) => ({
    query: { featured: f },
    echo: { featured: f === undefined ? undefined : f ? 1 : 0 },
  }),
};

const status: EventFilter = {
  args: ['status'],
  async apply(env) {
    const v = await env.visibility;
    return {
      query: {
        statuses: v.statuses,
        ownStatuses: v.ownStatuses,
        author: v.author,
        seesProtected: v.seesProtected,
      },
      echo: { status: v.echo },
    };
  },
};

const include: EventFilter = {
  args: ['include'],
  apply: ({ args }) => ({ query: { include: args.include }, echo: { include: args.include } }),
};

const parent: EventFilter = {
  args: ['post_parent'],
  async apply(env) {
    const id = env.args.post_parent;
    if (id === undefined) return {};
    // A parent the caller may not read is as unknown as one that does not exist: no probing for drafts.
    const [index, v] = await Promise.all([env.index, env.visibility]);
    const found = index.get(id);
    if (!(found && visibleTo(v)(found.status, found.author)))
      throw invalidParams({ post_parent: 'post_parent: no event with this id that you may read.' });
    return { query: { parent: id }, echo: { post_parent: id } };
  },
};

const series: EventFilter = {
  args: ['series'],
  async apply(env) {
    const id = env.args.series;
    if (id === undefined) return {};
    // A series the caller may not read is as unknown as one that does not exist, and a one-off is no series.
    const [index, v] = await Promise.all([env.index, env.visibility]);
    const found = index.get(id);
    if (!(found?.series && visibleTo(v)(found.status, found.author)))
      throw invalidParams({ series: 'series: no recurring event with this id that you may read.' });
    return { query: { series: id }, echo: { series: id } };
  },
};

const firstOnly: EventFilter = {
  args: ['hide_subsequent_recurrences'],
  apply: ({ args }) =>
    args.hide_subsequent_recurrences === true
      ? { query: { firstOnly: true }, echo: { hide_subsequent_recurrences: 'true' } }
      : {},
};

/**
 * Geolocation (src/geo/): events whose venue has coordinates (or none), or is within a radius of a point. The
 * venues' coordinates come from the venue catalog; the event index narrows by the venues found.
 */
const geo: EventFilter = {
  args: ['geoloc', 'geoloc_lat', 'geoloc_lng', 'geoloc_radius', 'orderby'],
  async apply({ deps, ctx, args }) {
    const point = pointOf(args);
    if (!point && args.geoloc === undefined) return {};
    const catalog = await deps.catalog.all('venue', ctx.language);
    const { distances, ...sets } = venueSetsOf(args, point, catalog);
    return {
      query: sets,
      echo: geoEcho(args, point),
      near: point && distances ? { ...point, distances } : undefined,
    };
  },
};

/** Every filter, in the order `rest_url` echoes them (TEC's, with categories and tags kept). */
export const EVENT_FILTERS: readonly EventFilter[] = [
  ticketed,
  dates,
  search,
  terms('categories'),
  terms('tags'),
  linked('venue'),
  linked('organizer'),
  featured,
  status,
  include,
  parent,
  series,
  firstOnly,
  geo,
];

export interface ResolvedEventQuery {
  query: EventQuery;
  /** The filters as `rest_url` and the page links echo them. */
  echo: Record<string, unknown>;
  visibility: Visibility;
  index: EventIndex;
  /** Given a point (`geoloc_lat`, `geoloc_lng`): the distances, and whether the list is ordered by them. */
  near?: Near;
}

/**
 * The index query of a list's arguments, every filter applied. `only` narrows which filters apply, for a query that
 * borrows some of them (`has_events` keeps the caller's visibility and no window).
 */
export async function eventQueryOf(
  deps: Deps,
  ctx: RequestContext,
  args: EventListArgs,
  only: readonly EventFilter[] = EVENT_FILTERS,
): Promise<ResolvedEventQuery> {
  const env: FilterEnv = {
    deps,
    ctx,
    args,
    visibility: listVisibility(deps, ctx, 'event', args.status),
    index: deps.indexes.forLanguage(ctx.language),
  };
  // Unhandled rejections are avoided: every filter that awaits these is awaited below, and so are both.
  env.visibility.catch(() => undefined);
  env.index.catch(() => undefined);
  const parts = await Promise.all(only.map((f) => f.apply(env)));
  const [visibility, index] = await Promise.all([env.visibility, env.index]);
  const query: EventQuery = { statuses: visibility.statuses };
  const echo: Record<string, unknown> = {};
  let near: Near | undefined;
  for (const p of parts) {
    Object.assign(query, p.query);
    Object.assign(echo, p.echo);
    near ??= p.near;
  }
  // A filter on what a password blanks matches a protected event only for who sees it in full (src/index/query.ts):
  // its editors, and whoever gave its password.
  query.seesProtected = await withPassword(deps, ctx, index, query, visibility, args.password);
  return { query, echo, visibility, index, near };
}

/** The status filter alone: the events a caller may read, for queries that take no other list argument. */
export const VISIBILITY_ONLY: readonly EventFilter[] = [status];
