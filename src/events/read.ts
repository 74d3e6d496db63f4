// GET /events/{id} and /events/by-slug/{slug}: one event, or one occurrence of a series, with TEC's access rules.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { invalidParams } from '../http/errors.ts';
import { isOccurrenceId } from '../recurrence/ids.ts';
import {
  type OccurrenceAnswer,
  overrideOccurrenceId,
  readOccurrence,
} from '../recurrence/occurrence-read.ts';
import type { SiteInfo } from '../serialize/index.ts';
import { serializeEvent } from '../serialize/index.ts';
import { readShown } from './read-post.ts';
import { relatedOf } from './related.ts';

/** Resolves a slug to an event id through the index (any status); an unknown slug is a 400, as in TEC. */
export async function idOfSlug(deps: Deps, ctx: RequestContext, slug: string): Promise<number> {
  const index = await deps.indexes.forLanguage(ctx.language);
  const f = index.bySlug(slug);
  if (!f) throw invalidParams({ slug: `slug: no event has the slug "${slug}".` });
  return f.id;
}

/**
 * One event as the caller may read it: a post id answers that post; an occurrence id (src/recurrence/ids.ts) answers
 * that occurrence of its series (src/recurrence/occurrence-read.ts). `asOccurrence`: an override post answers as the
 * occurrence it replaces, under the occurrence's id (a read by slug). `tags`: what the answer depends on beyond the
 * records it shows (for the response cache).
 */
export async function readEventAnswer(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  id: number,
  password: string | undefined,
  opts: { edit?: boolean; asOccurrence?: boolean } = {},
): Promise<OccurrenceAnswer> {
  if (isOccurrenceId(id)) return readOccurrence(deps, ctx, site, id, password, opts);
  const { post, unlock } = await readShown(deps, ctx, id, password, opts);
  const occurrence = opts.asOccurrence ? overrideOccurrenceId(deps, post) : undefined;
  if (occurrence !== undefined) return readOccurrence(deps, ctx, site, occurrence, password, opts);
  const related = await relatedOf(deps, ctx, [post]);
  const body = serializeEvent(post, related, {
    mapping: deps.mapping,
    site,
    context: 'single',
    password: unlock,
  });
  return { body };
}

/** One event's record (see readEventAnswer). */
export async function readEvent(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  id: number,
  password: string | undefined,
  opts: { edit?: boolean } = {},
): Promise<Record<string, unknown>> {
  return (await readEventAnswer(deps, ctx, site, id, password, opts)).body;
}
