// GET /events/{occurrence id}: one occurrence of a series, read as the caller (issue 31, "Reads").
//
// The series post is read as the caller may read it (its status and password decide, with a post's errors); the
// occurrence must be one the rule makes (an EXDATEd or made-up start is 404, TEC's not-found). An override the caller
// may see is answered in its place, under the occurrence's id; otherwise the series' fields with the occurrence's
// own dates. Both carry what an occurrence carries: `series_id`, `original_start_utc`, `is_recurring` and the
// series' `recurrence`.
import { tag } from '../cache/tags.ts';
import type { RequestContext } from '../context.ts';
import { msOfUtcWall, utcWallOf } from '../dates/utc-wall.ts';
import type { Deps } from '../deps.ts';
import { readShown } from '../events/read-post.ts';
import { relatedOf } from '../events/related.ts';
import { ApiError, eventGone, eventNotAccessible, eventNotFound } from '../http/errors.ts';
import { recordFieldsOf, writeRecord } from '../mapping/codec.ts';
import { globalId } from '../serialize/common.ts';
import { type SiteInfo, serializeEvent } from '../serialize/index.ts';
import { can } from '../wp/caller.ts';
import { asCaller } from '../wp/client.ts';
import type { WpPost } from '../wp/types.ts';
import { type RecurrenceFields, ruleAnswer } from './answer.ts';
import { Expander, readRuleText } from './expand.ts';
import { identityOf, occurrenceId } from './ids.ts';
import { linksOf, mapsRecurrence, SERIES_QUERY, seriesStartOf } from './store.ts';
import { occurrenceDates, withBody } from './values.ts';

/** An answer of a read, and the cache tags it depends on beyond the records it shows. */
export interface OccurrenceAnswer {
  body: Record<string, unknown>;
  tags?: string[];
}

/** The statuses of a series' overrides an editor is shown (WordPress still checks each post's read permission). */
const VISIBLE_TO_EDITORS = 'publish,future,draft,pending,private';

/** The occurrence id an override post answers under (a read by its slug), or undefined when it is no override. */
export function overrideOccurrenceId(deps: Pick<Deps, 'mapping'>, post: WpPost): number | undefined {
  if (!mapsRecurrence(deps)) return undefined;
  const { seriesParent, recurrenceId } = linksOf(deps, post);
  if (seriesParent === undefined || recurrenceId === undefined) return undefined;
  return occurrenceId({ seriesId: seriesParent, originalStartMs: msOfUtcWall(recurrenceId) });
}

/** A refusal to read the series, told about the occurrence asked for (same code and status, its id). */
function asOccurrenceError(err: unknown, id: number): unknown {
  if (!(err instanceof ApiError)) return err;
  if (err.code === 'rest-event-not-found' || err.code === 'rest-invalid-event-id') return eventNotFound(id);
  if (err.code === 'event-not-accessible') return eventNotAccessible(id);
  if (err.code === eventGone(0).code) return eventGone(id);
  return err;
}

/**
 * The override of the occurrence at `ms` that the caller may see, if any: the series' overrides listed with the
 * caller's own credentials (an editor's in every status but the trash, anyone else's published), so WordPress
 * decides, as it does for a post. A draft override leaves the public the series' own occurrence.
 */
async function visibleOverride(
  deps: Deps,
  ctx: RequestContext,
  seriesId: number,
  ms: number,
): Promise<WpPost | undefined> {
  const caller = ctx.credentials ? await deps.callers.resolve(ctx) : null;
  const editor = can(caller, deps.site.caps.event ?? {}, 'edit_posts');
  const posts = await deps.wp.all<WpPost>({
    path: `/wp/v2/${deps.mapping.event.restBase}`,
    query: {
      [SERIES_QUERY]: seriesId,
      ...(editor ? { status: VISIBLE_TO_EDITORS } : {}),
      _fields: recordFieldsOf(deps.mapping, 'event'),
    },
    ...asCaller(ctx),
  });
  const original = utcWallOf(ms);
  // The filter narrows the list; the stored links prove it (a site whose plugin ignored it would list every event).
  return posts.find((p) => {
    const links = linksOf(deps, p);
    return links.seriesParent === seriesId && links.recurrenceId === original;
  });
}

/** A record answered under the occurrence's id, with the occurrence's recurrence fields (after TEC's keys). */
function asOccurrenceRecord(
  record: Record<string, unknown>,
  id: number,
  site: SiteInfo,
  fields: RecurrenceFields,
): Record<string, unknown> {
  const gid = globalId(site.home, id);
  // Keys already in the record keep their place: TEC's order stays a prefix.
  Object.assign(record, {
    id,
    global_id: gid,
    global_id_lineage: [gid],
    rest_url: `${site.apiRoot}/events/${id}`,
  });
  return Object.assign(record, fields);
}

/** One occurrence of a series, as the caller may read it. */
export async function readOccurrence(
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  id: number,
  password: string | undefined,
  opts: { edit?: boolean } = {},
): Promise<OccurrenceAnswer> {
  const identity = identityOf(id);
  if (!identity || !mapsRecurrence(deps)) throw eventNotFound(id);
  const { seriesId, originalStartMs: ms } = identity;
  const { post: series, unlock } = await readShown(deps, ctx, seriesId, password, opts).catch(
    (err: unknown) => {
      throw asOccurrenceError(err, id);
    },
  );
  const text = linksOf(deps, series).text;
  const rule = readRuleText(text);
  const start = seriesStartOf(deps, series);
  const expander = rule && Expander.of(rule, start);
  // An occurrence the rule makes (EXDATEs removed); a start it does not make is no event, as an unknown id is not.
  if (!expander?.between(ms, ms, 1).length) throw eventNotFound(id);
  const fields: RecurrenceFields = {
    is_recurring: true,
    series_id: seriesId,
    original_start_utc: utcWallOf(ms),
    recurrence: ruleAnswer(text, start),
  };
  // Any event change may be an override made or published for this occurrence (an editor's wp/v2 write names only
  // the override's post): the answer goes with the event lists, as well as with its series and override.
  const tags = [tag.list('event'), tag.event(seriesId)];
  const override = await visibleOverride(deps, ctx, seriesId, ms);
  const shown = override
    ? await readShown(deps, ctx, override.id, password, opts).catch((err: unknown) => {
        // Gone or unreadable since it was listed: the series' own occurrence stands. A password is the override's.
        if (err instanceof ApiError && (err.status === 404 || err.code === 'event-not-accessible'))
          return undefined;
        throw err;
      })
    : undefined;
  const options = { mapping: deps.mapping, site, context: 'single' as const };
  if (shown) {
    const related = await relatedOf(deps, ctx, [shown.post], [series]);
    const record = serializeEvent(shown.post, related, { ...options, password: shown.unlock });
    return { body: asOccurrenceRecord(record, id, site, fields), tags: [...tags, tag.event(shown.post.id)] };
  }
  const dated = withBody(series, writeRecord(deps.mapping, 'event', occurrenceDates(deps, series, ms)));
  const related = await relatedOf(deps, ctx, [dated]);
  const record = serializeEvent(dated, related, { ...options, password: unlock });
  return { body: asOccurrenceRecord(record, id, site, fields), tags };
}
