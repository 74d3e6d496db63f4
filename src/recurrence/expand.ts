// A series' occurrences within a window (rrule-temporal, read in the series' time zone): never more than asked for.
//
// The stored rule is RECURRENCE.md's canonical text (RRULE, RDATE, EXDATE lines). A timed series' RDATE/EXDATE are
// wall times in its zone and its UNTIL is UTC; an all-day series' are dates. The rule is read in the zone of the first
// occurrence, so a weekly 19:00 America/New_York series stays at 19:00 local across DST (RFC 5545 §3.3.10). Why
// rrule-temporal and not ical.js: see src/recurrence/README.md (the differential test and its figures).
import { RRuleTemporal } from 'rrule-temporal';
import { Temporal } from 'temporal-polyfill';
import { normaliseTimezone } from '../dates/zones.ts';

/** The stored rule's parts, in their stored forms (`rrule` without `RRULE:`). */
export interface StoredRule {
  rrule: string;
  rdate: string[];
  exdate: string[];
}

/** What a series' occurrences are read from: its rule and its first occurrence. */
export interface SeriesTimes {
  /** The first occurrence's local start, `Y-m-d H:i:s` in `timezone`. */
  start: string;
  /** The event's zone as TEC stores it (IANA, `UTC`, `UTC+5:30`). */
  timezone: string;
  allDay: boolean;
}

/** One occurrence: its start as an instant and as the local wall clock of the series' zone. */
export interface OccurrenceStart {
  /** ms since the Unix epoch (UTC). */
  ms: number;
  /** `Y-m-d H:i:s` in the series' zone (an all-day occurrence's is its day at 00:00:00). */
  wall: string;
}

/** Reads the canonical rule text; undefined when it holds no RRULE and no RDATE (then it is no series). */
export function readRuleText(text: unknown): StoredRule | undefined {
  if (typeof text !== 'string' || !text.trim()) return undefined;
  const out: StoredRule = { rrule: '', rdate: [], exdate: [] };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).toUpperCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'RRULE') out.rrule = value;
    else if (name === 'RDATE') out.rdate.push(...listOf(value));
    else if (name === 'EXDATE') out.exdate.push(...listOf(value));
  }
  return out.rrule || out.rdate.length ? out : undefined;
}

const listOf = (value: string): string[] =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** The Temporal time zone id of a TEC zone: IANA as is, manual offsets as `±HH:MM`; undefined when unreadable. */
export function tzidOf(timezone: string): string | undefined {
  const zone = normaliseTimezone(timezone || 'UTC');
  if (!zone) return undefined;
  const offset = /^UTC([+-])(\d{1,2})(?::(\d{2}))?$/.exec(zone);
  if (!offset) return zone;
  return `${offset[1]}${offset[2].padStart(2, '0')}:${offset[3] ?? '00'}`;
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/;
const STAMP = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/;

/**
 * The rule is expanded on the series' wall clock ("floating": local times read as if UTC), then each local start is
 * placed in the zone as RFC 5545 §3.3.10 says: "interpreted in the same manner as an explicit DATE-TIME value"
 * (§3.3.5), a time skipped by a DST change moved forward by the gap, a repeated one taken the first time. rrule-temporal
 * in the zone itself drops such an occurrence; ical.js moves it back an hour (see src/recurrence/README.md).
 */
const floating = (iso: string) => ({ timeZoneId: 'UTC', toString: () => `${iso}+00:00[UTC]` });

/** A stored RDATE/EXDATE value as an ISO local date-time (`20270105T190000` / `20270105`); undefined if unreadable. */
function isoOfStamp(stamp: string, allDay: boolean): string | undefined {
  const m = STAMP.exec(stamp);
  if (!m || m[7]) return undefined;
  const time = allDay || !m[4] ? '00:00:00' : `${m[4]}:${m[5]}:${m[6]}`;
  return `${m[1]}-${m[2]}-${m[3]}T${time}`;
}

/** An ISO local date-time → ms as if UTC (the floating clock). */
const floatMsOf = (iso: string): number => Date.parse(`${iso}Z`);
/** ms on the floating clock → the ISO local date-time. */
const isoOfFloat = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

/**
 * The RRULE on the floating clock: UNTIL (UTC, or an all-day series' date) becomes the series' local wall time of
 * that instant (the date's last second), written as if UTC.
 */
function rruleFor(rrule: string, allDay: boolean, tzid: string): string {
  return rrule.replace(
    /UNTIL=(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?(?=;|$)/i,
    (_, y, mo, d, h, mi, se) => {
      if (allDay || h === undefined) return `UNTIL=${y}${mo}${d}T235959Z`;
      const local = Temporal.Instant.from(`${y}-${mo}-${d}T${h}:${mi}:${se}Z`).toZonedDateTimeISO(tzid);
      return `UNTIL=${local.toPlainDateTime().toString().replace(/[-:]/g, '').slice(0, 15)}Z`;
    },
  );
}

/** Rules already built, by their text and first occurrence (rrule-temporal memoises what it expanded). */
const built = new Map<string, Expander | null>();
/** The span asked of the library at once (a daily rule: 366 occurrences, within its 10 000 iterations). */
const CHUNK_MS = 366 * 86_400_000;
/** A zone's offset is within ±14 h (and a DST gap is under a day): the floating window is widened by a day. */
const DAY_MS = 86_400_000;
/** Expanders kept (each holds its rule and what the library memoised): enough for the series a site shows. */
const BUILT_MAX = 5_000;

/** A series' occurrences, read lazily: only the window asked for is ever expanded. */
export class Expander {
  readonly #rule: RRuleTemporal | undefined;
  /** RDATEs and the first occurrence, on the floating clock, ascending. */
  readonly #rdates: number[];
  /** EXDATEs on the floating clock. */
  readonly #exdates: Set<number>;
  readonly #first: OccurrenceStart;
  /** No occurrence starts after this on the floating clock (UNTIL, the COUNTth, the last RDATE); Infinity if never. */
  readonly #lastFloat: number;
  readonly tzid: string;

  private constructor(rule: StoredRule, times: SeriesTimes, tzid: string, startIso: string) {
    this.tzid = tzid;
    const first = placed(floatMsOf(startIso), tzid);
    if (!first) throw new Error('unplaceable start');
    this.#first = first;
    const floats = (values: string[]) =>
      values.map((v) => isoOfStamp(v, times.allDay)).flatMap((iso) => (iso ? [floatMsOf(iso)] : []));
    this.#exdates = new Set(floats(rule.exdate));
    this.#rule = rule.rrule
      ? new RRuleTemporal({
          rruleString: rruleFor(rule.rrule, times.allDay, tzid),
          dtstart: floating(startIso),
          tzid: 'UTC',
          // DTSTART is the first occurrence and counts towards COUNT, as in ical.js and Google Calendar.
          includeDtstart: true,
        })
      : undefined;
    // The first occurrence is always one (RFC 5545: DTSTART starts the set), whatever the rule says.
    this.#rdates = [...new Set([floatMsOf(startIso), ...floats(rule.rdate)])].sort((a, b) => a - b);
    this.#lastFloat = Math.max(this.#rdates.at(-1) ?? 0, ruleEndMs(this.#rule));
  }

  /** The expander of a series, or undefined when its rule or first occurrence cannot be read. */
  static of(rule: StoredRule, times: SeriesTimes): Expander | undefined {
    const key = `${rule.rrule}\n${rule.rdate.join(',')}\n${rule.exdate.join(',')}\n${times.start}\n${times.timezone}\n${times.allDay}`;
    let hit = built.get(key);
    if (hit === undefined) {
      hit = build(rule, times) ?? null;
      if (built.size >= BUILT_MAX) built.clear();
      built.set(key, hit);
    }
    return hit ?? undefined;
  }

  /** @internal */
  static create(rule: StoredRule, times: SeriesTimes, tzid: string, startIso: string): Expander {
    return new Expander(rule, times, tzid, startIso);
  }

  /** The first occurrence (the series' own start). */
  get first(): OccurrenceStart {
    return this.#first;
  }

  /**
   * Occurrence starts from `fromMs` to `toMs` (both inclusive), ascending, EXDATEs removed, at most `limit` of them:
   * however far the rule runs, only this window is expanded.
   */
  between(fromMs: number, toMs: number, limit = 10_000): OccurrenceStart[] {
    if (!(fromMs <= toMs) || limit < 1) return [];
    const out: OccurrenceStart[] = [];
    const end = Math.min(toMs + DAY_MS, this.#lastFloat);
    // A chunk at a time: the library expands a window in one go (and caps its own iterations), so a century of a
    // daily rule is asked for a year at a time, and only until `limit` occurrences are found.
    for (let from = fromMs - DAY_MS; from <= end && out.length < limit; from += CHUNK_MS) {
      const to = Math.min(end, from + CHUNK_MS - 1);
      const found = new Set<number>();
      for (const r of this.#rdates) if (r >= from && r <= to) found.add(r);
      if (this.#rule) {
        for (const z of safely(() => this.#rule?.between(new Date(from), new Date(to), true))) {
          found.add(z.epochMilliseconds);
        }
      }
      for (const f of [...found].sort((a, b) => a - b)) {
        if (this.#exdates.has(f)) continue;
        const o = placed(f, this.tzid);
        if (!o || o.ms < fromMs || o.ms > toMs) continue;
        out.push(o);
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  /** The first occurrence at or after `fromMs`, looking no further than `toMs`. */
  next(fromMs: number, toMs: number): OccurrenceStart | undefined {
    // A window at a time, widening: a weekly series finds its next one in the first, a yearly one soon after.
    for (let span = 32 * 86_400_000, from = fromMs; from <= toMs; from += span, span *= 4) {
      const found = this.between(from, Math.min(toMs, from + span - 1), 1);
      if (found.length) return found[0];
    }
    return undefined;
  }
}

/** When a rule ends: its UNTIL, or its last occurrence when it has a COUNT (expanded once); Infinity if never. */
function ruleEndMs(rule: RRuleTemporal | undefined): number {
  if (!rule) return Number.NEGATIVE_INFINITY;
  const { until, count } = rule.options();
  if (until) return until.epochMilliseconds;
  if (count === undefined) return Number.POSITIVE_INFINITY;
  return safely(() => rule.all()).at(-1)?.epochMilliseconds ?? Number.NEGATIVE_INFINITY;
}

/**
 * The library's answer, or none when it gives up: a rule that can never occur (`BYMONTH=2;BYMONTHDAY=30`) makes it
 * search until its iteration cap, and that series then has its RDATEs (and first occurrence) only.
 */
function safely<T>(expand: () => T[] | undefined): T[] {
  try {
    return expand() ?? [];
  } catch {
    return [];
  }
}

function build(rule: StoredRule, times: SeriesTimes): Expander | undefined {
  const tzid = tzidOf(times.timezone);
  const m = WALL.exec(times.start);
  if (!tzid || !m) return undefined;
  const iso = `${m[1]}-${m[2]}-${m[3]}T${times.allDay ? '00:00:00' : `${m[4]}:${m[5]}:${m[6]}`}`;
  try {
    return Expander.create(rule, times, tzid, iso);
  } catch {
    // An unparsable RRULE stored by hand, or a start that is no date: no occurrences at all.
    return undefined;
  }
}

/** A local start on the floating clock, placed in the zone (compatible: a gap's time moved forward, a fold's first). */
function placed(floatMs: number, tzid: string): OccurrenceStart | undefined {
  // Most days have one offset all day: placing a time there is a subtraction. Temporal (the polyfill costs ~0.1 ms a
  // call, which was 11 ms a weekly series over 24 months) is asked once per zone and day, and for every time on a
  // day whose offset changes.
  const offset = dayOffset(Math.floor(floatMs / DAY_MS), tzid);
  if (offset !== null) return { ms: floatMs - offset, wall: isoOfFloat(floatMs).replace('T', ' ') };
  try {
    const z = Temporal.PlainDateTime.from(isoOfFloat(floatMs)).toZonedDateTime(tzid);
    return { ms: z.epochMilliseconds, wall: wallOf(z.toPlainDateTime().toString()) };
  } catch {
    return undefined;
  }
}

/** The zone's UTC offset (ms) on a local day when it holds all day, null when it changes that day; by zone and day. */
const OFFSETS = new Map<string, Map<number, number | null>>();
function dayOffset(day: number, tzid: string): number | null {
  let days = OFFSETS.get(tzid);
  if (!days) {
    days = new Map();
    OFFSETS.set(tzid, days);
  }
  let hit = days.get(day);
  if (hit === undefined) {
    hit = null;
    try {
      const date = Temporal.PlainDate.from(isoOfFloat(day * DAY_MS).slice(0, 10));
      const first = date.toZonedDateTime({ timeZone: tzid });
      const last = date.toPlainDateTime({ hour: 23, minute: 59, second: 59 }).toZonedDateTime(tzid);
      // The same offset at both ends, and the day really starts at 00:00 (no gap at midnight).
      if (first.offsetNanoseconds === last.offsetNanoseconds && first.hour === 0 && first.minute === 0) {
        hit = first.offsetNanoseconds / 1e6;
      }
    } catch {
      hit = null;
    }
    if (days.size >= 100_000) days.clear();
    days.set(day, hit);
  }
  return hit;
}

/** `2026-10-27T19:00:00` (or with fractions, or without seconds) → `2026-10-27 19:00:00`. */
function wallOf(iso: string): string {
  const [date, time = '00:00:00'] = iso.split('T');
  return `${date} ${`${time.slice(0, 8)}:00`.slice(0, 8)}`;
}
