// A series' stored fields (RECURRENCE.md, "Storage") read through the mapping, and its overrides found in WordPress.
import type { RequestContext } from '../context.ts';
import type { Deps } from '../deps.ts';
import { type FieldValue, readRecord } from '../mapping/codec.ts';
import { asCaller } from '../wp/client.ts';
import type { WpPost } from '../wp/types.ts';
import { parseRecurrence, type Rule, type RuleLimits, type SeriesStart } from './rule.ts';

/**
 * The companion plugin's list filter: the events whose `series_parent` is the given id (a series' overrides), a
 * meta_query on the mapping's key. wp/v2 has no filter on meta of its own.
 */
export const SERIES_QUERY = 'calendar_gateway_series';

/** The fields of RECURRENCE.md's storage, as calendar field names of the mapping. */
export const RECURRENCE_FIELDS = ['recurrence', 'series_parent', 'recurrence_id', 'series_previous'] as const;

export const limitsOf = (deps: Pick<Deps, 'recurrenceMaxCount'>): RuleLimits => ({
  maxCount: deps.recurrenceMaxCount ?? 1000,
});

/** Whether the mapping stores recurrence (both bundled mappings do; a custom one may not). */
export const mapsRecurrence = (deps: Pick<Deps, 'mapping'>): boolean =>
  RECURRENCE_FIELDS.every((f) => deps.mapping.event.fields[f] !== undefined);

const values = (deps: Pick<Deps, 'mapping'>, post: WpPost) =>
  readRecord(deps.mapping, 'event', post) as Record<string, FieldValue>;

/** Where an event starts, as a series' rule reads it. */
export function seriesStartOf(deps: Pick<Deps, 'mapping' | 'site'>, post: WpPost): SeriesStart {
  const v = values(deps, post);
  return {
    start: String(v.start_date ?? ''),
    timezone: typeof v.timezone === 'string' && v.timezone ? v.timezone : deps.site.timezone,
    allDay: v.all_day === true,
  };
}

/** A stored event's recurrence links: what it is in a series. */
export interface Links {
  /** The stored rule text (a series), or undefined. */
  text?: string;
  /** An override: the series it belongs to, and the original start (UTC `Y-m-d H:i:s`) it replaces. */
  seriesParent?: number;
  recurrenceId?: string;
  seriesPrevious?: number;
}

export function linksOf(deps: Pick<Deps, 'mapping'>, post: WpPost): Links {
  const v = values(deps, post);
  const id = (x: FieldValue | undefined) => (typeof x === 'number' && x > 0 ? x : undefined);
  const text = typeof v.recurrence === 'string' && v.recurrence.trim() ? v.recurrence : undefined;
  const recurrenceId = typeof v.recurrence_id === 'string' && v.recurrence_id ? v.recurrence_id : undefined;
  return {
    ...(text ? { text } : {}),
    ...(id(v.series_parent) ? { seriesParent: id(v.series_parent) } : {}),
    ...(recurrenceId ? { recurrenceId } : {}),
    ...(id(v.series_previous) ? { seriesPrevious: id(v.series_previous) } : {}),
  };
}

/** The rule a series post stores, read for its own start; undefined for a one-off (or a rule no longer valid). */
export function storedRule(
  deps: Pick<Deps, 'mapping' | 'site' | 'recurrenceMaxCount'>,
  post: WpPost,
): Rule | undefined {
  const { text } = linksOf(deps, post);
  if (!text) return undefined;
  // Stored rules were valid when written; a COUNT over a since-lowered maximum still reads.
  const r = parseRecurrence(text, seriesStartOf(deps, post), { maxCount: Number.MAX_SAFE_INTEGER });
  return r.ok ? r.rule : undefined;
}

/** The overrides of a series in WordPress (any status but the trash), read in the edit context as the caller. */
export async function overridesOf(deps: Deps, ctx: RequestContext, seriesId: number): Promise<WpPost[]> {
  const posts = await deps.wp.all<WpPost>({
    path: `/wp/v2/${deps.mapping.event.restBase}`,
    query: { [SERIES_QUERY]: seriesId, status: 'any', context: 'edit' },
    ...asCaller(ctx),
  });
  // The filter narrows the list; the stored link proves it (a site whose plugin ignored it would list every event).
  return posts.filter((p) => linksOf(deps, p).seriesParent === seriesId);
}
