// The date window of `GET /events` (TEC §4): defaults, inclusive vs strict days, relative bounds, as a filter.
import { DateTime } from 'luxon';
import { WHY } from '../contract/args.ts';
import { type ApiError, invalidParams } from '../http/errors.ts';
import { parseTime } from './parse.ts';
import { WALL_FORMAT, zoneOf } from './zones.ts';

/** Raw date arguments as sent (already checked to be strings), plus the flags that change the defaults. */
export interface ListDateQuery {
  start_date?: string;
  end_date?: string;
  starts_before?: string;
  starts_after?: string;
  ends_before?: string;
  ends_after?: string;
  strict_dates?: boolean;
  /** Any value: its presence alone drops the default window. */
  include?: unknown;
}

/** Site-local `Y-m-d H:i:s` bounds, compared as strings with the events' stored local start/end wall clocks. */
export interface DateFilter {
  /** start ≥ (`start_date`) */
  startGte?: string;
  /** end ≤ (`end_date`) */
  endLte?: string;
  /** start < (`starts_before`) */
  startLt?: string;
  /** start > (`starts_after`) */
  startGt?: string;
  /** end < (`ends_before`) */
  endLt?: string;
  /** end > (`ends_after`) */
  endGt?: string;
}

export type ListDates =
  | { ok: true; filter: DateFilter; echo: Partial<Record<DateParam, string>> }
  | { ok: false; error: ApiError };

type DateParam = Exclude<keyof ListDateQuery, 'strict_dates' | 'include'>;

const BOUNDS: ReadonlyArray<[DateParam, keyof DateFilter]> = [
  ['start_date', 'startGte'],
  ['end_date', 'endLte'],
  ['starts_before', 'startLt'],
  ['starts_after', 'startGt'],
  ['ends_before', 'endLt'],
  ['ends_after', 'endGt'],
];
const RELATIVE: readonly DateParam[] = ['starts_before', 'starts_after', 'ends_before', 'ends_after'];

/**
 * Resolves the list window. Inclusive mode (the default) widens each value to whole days: `start_date` to 00:00:00,
 * every other bound to 23:59:59, the day being the value's UTC calendar day (TEC parses in PHP's UTC default), so
 * `starts_after=D` excludes all of D. Strict mode reads each value in UTC (unless it has an offset) and moves it to
 * the site zone, keeping the instant.
 *
 * Defaults apply only when no relative bound is sent and `include` is absent. TEC drops its date filters for
 * `include` but may re-add the defaults afterwards (contract §4, unverified); we choose the documented intent, so
 * `include=…` finds past events too. An explicit `start_date`/`end_date` always applies.
 */
export function resolveListDates(query: ListDateQuery, site: { timezone: string }, now: Date): ListDates {
  const siteZone = zoneOf(site.timezone);
  const strict = query.strict_dates === true;
  const bad: Record<string, string> = {};
  const filter: DateFilter = {};

  for (const [param, bound] of BOUNDS) {
    const raw = query[param];
    if (raw === undefined) continue;
    const parsed = parseTime(raw, 'UTC', now);
    if (parsed === null) bad[param] = `${param} ${WHY.time}`;
    else filter[bound] = strict ? inZone(parsed, siteZone) : wholeDay(parsed, param === 'start_date');
  }
  if (Object.keys(bad).length > 0) return { ok: false, error: invalidParams(bad) };

  const useDefaults = query.include === undefined && !RELATIVE.some((param) => query[param] !== undefined);
  if (useDefaults && (filter.startGte === undefined || filter.endLte === undefined)) {
    const d = defaultsAt(siteZone, strict, now);
    filter.startGte ??= d.start;
    filter.endLte ??= d.end;
  }

  // `rest_url` echoes every bound as applied: widened to whole days in inclusive mode, in the site zone if strict.
  const echo: Partial<Record<DateParam, string>> = {};
  for (const [param, bound] of BOUNDS) if (filter[bound] !== undefined) echo[param] = filter[bound];
  return { ok: true, filter, echo };
}

function inZone(dt: DateTime, zone: string): string {
  return dt.setZone(zone).toFormat(WALL_FORMAT);
}

// tribe_beginning_of_day / tribe_end_of_day on the value's UTC date.
function wholeDay(dt: DateTime, isStart: boolean): string {
  return `${dt.toUTC().toFormat('yyyy-MM-dd')} ${isStart ? '00:00:00' : '23:59:59'}`;
}

/** The last defaults made (they change once a second at most; a list miss asks for them every time). */
let lastDefaults: { key: string; start: string; end: string } | null = null;

function defaultsAt(siteZone: string, strict: boolean, now: Date): { start: string; end: string } {
  const key = `${siteZone} ${strict} ${Math.floor(now.getTime() / 1000)}`;
  if (lastDefaults?.key !== key)
    lastDefaults = {
      key,
      start: defaultStart(siteZone, strict, now),
      end: defaultEnd(siteZone, strict, now),
    };
  return lastDefaults;
}

/** "yesterday 23:59" on the UTC clock, moved to the site zone; inclusive mode keeps only that site-local day. */
function defaultStart(siteZone: string, strict: boolean, now: Date): string {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const local = DateTime.fromMillis(midnight - 60_000, { zone: siteZone });
  return strict ? local.toFormat(WALL_FORMAT) : `${local.toFormat('yyyy-MM-dd')} 00:00:00`;
}

/**
 * PHP's `strtotime('+24 months')` in UTC, then treated like an explicit `end_date` (23:59:59 of that day when
 * inclusive). PHP's month arithmetic overflows where luxon's clamps: from 29 February it ends on 1 March.
 */
function defaultEnd(siteZone: string, strict: boolean, now: Date): string {
  const end = parseTime('+24 months', 'UTC', now)!;
  return strict ? inZone(end, siteZone) : wholeDay(end, false);
}
