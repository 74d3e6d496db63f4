// What an update or delete addresses: a one-off, a series, or one occurrence of a series (by its id or its override's).
import type { RequestContext } from '../context.ts';
import { SCOPES } from '../contract/recurrence.ts';
import { msOfUtcWall, utcWallOf } from '../dates/utc-wall.ts';
import type { Deps } from '../deps.ts';
import { readEventPost } from '../events/read-post.ts';
import { ApiError, eventNotFound, forbidden, invalidParams } from '../http/errors.ts';
import type { WpPost } from '../wp/types.ts';
import { identityOf, isOccurrenceId } from './ids.ts';
import { firstMs, occursAt } from './occurs.ts';
import type { Rule, SeriesStart } from './rule.ts';
import { linksOf, overridesOf, seriesStartOf, storedRule } from './store.ts';

export type Scope = (typeof SCOPES)[number];

export interface Series {
  post: WpPost;
  rule: Rule;
  start: SeriesStart;
}

export type Target =
  | { kind: 'one-off'; post: WpPost }
  | {
      kind: 'series' | 'occurrence';
      series: Series;
      /** The occurrence addressed: its original start (ms, UTC), and its override when it has one. */
      ms: number;
      override?: WpPost;
      /** `all` on the series post's id, `this` on an occurrence's id or its override's. */
      defaultScope: Scope;
    };

/** Reads an event post to write to (edit context, as the caller), answering for `id` when it is missing. */
export async function readForWrite(
  deps: Deps,
  ctx: RequestContext,
  postId: number,
  id: number,
): Promise<WpPost> {
  try {
    return await readEventPost(deps, ctx, postId, { context: 'edit' });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404 && postId !== id) throw eventNotFound(id);
    // As an update or delete of the event itself answers: the caller may not edit it.
    if (err instanceof ApiError && err.code === 'event-not-accessible') throw forbidden(true);
    throw err;
  }
}

async function seriesOf(deps: Deps, ctx: RequestContext, seriesId: number, id: number): Promise<Series> {
  const post = await readForWrite(deps, ctx, seriesId, id);
  const rule = storedRule(deps, post);
  if (!rule || post.status === 'trash') throw eventNotFound(id);
  return { post, rule, start: seriesStartOf(deps, post) };
}

const overrideAt = async (deps: Deps, ctx: RequestContext, series: Series, ms: number) =>
  (await overridesOf(deps, ctx, series.post.id)).find((p) => linksOf(deps, p).recurrenceId === utcWallOf(ms));

/**
 * What `id` addresses. `current`: the post of a post id, when the caller read it already. An occurrence id whose
 * series has no occurrence (and no override) at that start is 404, as an unknown event is.
 */
export async function targetOf(
  deps: Deps,
  ctx: RequestContext,
  id: number,
  current?: WpPost,
): Promise<Target> {
  if (isOccurrenceId(id)) {
    const identity = identityOf(id);
    if (!identity) throw eventNotFound(id);
    const series = await seriesOf(deps, ctx, identity.seriesId, id);
    const ms = identity.originalStartMs;
    const override = await overrideAt(deps, ctx, series, ms);
    if (!override && !occursAt(series.rule, series.start, ms)) throw eventNotFound(id);
    return { kind: 'occurrence', series, ms, ...(override ? { override } : {}), defaultScope: 'this' };
  }
  const post = current ?? (await readForWrite(deps, ctx, id, id));
  const links = linksOf(deps, post);
  if (links.seriesParent !== undefined && links.recurrenceId !== undefined) {
    const series = await seriesOf(deps, ctx, links.seriesParent, id);
    return {
      kind: 'occurrence',
      series,
      ms: msOfUtcWall(links.recurrenceId),
      override: post,
      defaultScope: 'this',
    };
  }
  const rule = storedRule(deps, post);
  if (!rule) return { kind: 'one-off', post };
  const series = { post, rule, start: seriesStartOf(deps, post) };
  return { kind: 'series', series, ms: firstMs(series.start), defaultScope: 'all' };
}

/** The scope a write asked for, or the target's default; `following` from the first occurrence is `all`. */
export function scopeOf(t: Target & { kind: 'series' | 'occurrence' }, asked: unknown): Scope {
  if (asked !== undefined && !(SCOPES as readonly unknown[]).includes(asked))
    throw invalidParams({ scope: 'scope must be one of this, following, all.' });
  const scope = (asked as Scope | undefined) ?? t.defaultScope;
  return scope === 'following' && t.ms <= firstMs(t.series.start) ? 'all' : scope;
}
