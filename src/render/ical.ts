// Event records as an RFC 5545 calendar (ical-generator): what a subscriber's calendar app reads from a feed.
//
// The records are the ones the JSON answer holds for the same caller, so whatever the JSON blanks (a protected
// description) is blank here too. The same records give the same bytes: DTSTAMP is the event's modified time and
// nothing reads the clock, so a feed's ETag holds until an event changes.

import ical, { type ICalCalendar, ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import { utf8Bytes } from '../http/answer.ts';
import { nextSlice, sliceOver } from '../pace/turns.ts';
import { displayText, oneLine } from '../text/display.ts';
import { DAY_ID, type Masters, mastersOf, seriesPartsOf, WALL_ID, withDateIds } from './ical-series.ts';

type Json = Record<string, unknown>;

export interface CalendarInfo {
  /** The calendar's name as subscribers see it: the site's, and what the feed is filtered to. */
  name: string;
  /** The site's host, the right-hand side of every UID. */
  host: string;
  /** How long subscribers should wait before they ask again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
  refreshSeconds: number;
}

const WALL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * A stored `Y-m-d H:i:s` wall clock in `zone` (read by a pattern and built from its parts: luxon's format parser
 * cost more than the rest of an event's rendering).
 */
function wallIn(wall: unknown, zone: string): DateTime | undefined {
  const m = typeof wall === 'string' ? WALL.exec(wall) : null;
  if (!m) return undefined;
  const [, year, month, day, hour, minute, second] = m.map(Number);
  const d = DateTime.fromObject({ year, month, day, hour, minute, second }, { zone });
  return d.isValid ? d : undefined;
}

/** SEQUENCE counts from here: seconds of the event's last change, so any change (dates included) raises it. */
const SEQUENCE_EPOCH = Date.UTC(2020, 0, 1) / 1000;

/** TEC's statuses as iCalendar's: a postponed event has no date it is sure of. */
const STATUS: Record<string, ICalEventStatus> = {
  scheduled: ICalEventStatus.CONFIRMED,
  canceled: ICalEventStatus.CANCELLED,
  postponed: ICalEventStatus.TENTATIVE,
};

/** The VTIMEZONE of an IANA zone, or undefined for one the zone library does not know (then UTC times are sent). */
const VTIMEZONES = new Map<string, string | undefined>();
function vtimezoneOf(zone: string): string | undefined {
  if (!VTIMEZONES.has(zone)) {
    const block = /^[A-Za-z]+\/[A-Za-z0-9_+\-/]+$/.test(zone) ? tzlib_get_ical_block(zone)[0] : '';
    VTIMEZONES.set(zone, block?.startsWith('BEGIN:VTIMEZONE') ? block : undefined);
  }
  return VTIMEZONES.get(zone);
}

/** TEXT as RFC 5545 §3.3.11 escapes it, for the calendar name (ical-generator writes it as given). */
const escapeText = (s: string): string => s.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r\n|\r|\n/g, '\\n');

/** A title, a name, an address part: HTML as one line of text. */
const text = (v: unknown): string => (typeof v === 'string' ? oneLine(v) : '');
const utcOf = (wall: unknown): DateTime | undefined => wallIn(wall, 'utc');

/** The venue as LOCATION (its name and address on one line) and GEO when it has coordinates. */
function locationOf(venue: unknown): { title: string; geo?: { lat: number; lon: number } } | undefined {
  const v = (Array.isArray(venue) ? venue[0] : venue) as Json | undefined;
  if (!v || typeof v !== 'object' || !v.id) return undefined;
  const parts = [v.venue, v.address, v.city, v.stateprovince || v.state || v.province, v.zip, v.country]
    .map(text)
    .filter(Boolean);
  if (!parts.length) return undefined;
  const lat = Number(v.geo_lat);
  const lon = Number(v.geo_lng);
  const geo =
    v.geo_lat !== undefined && Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon } : undefined;
  return { title: parts.join(', '), ...(geo && { geo }) };
}

/** The first organizer with an e-mail address: ORGANIZER is a calendar address, and a name alone is none. */
function organizerOf(organizers: unknown): { name: string; email: string } | undefined {
  for (const o of Array.isArray(organizers) ? (organizers as Json[]) : []) {
    const email = typeof o.email === 'string' ? o.email.trim() : '';
    if (email.includes('@')) return { name: text(o.organizer) || email, email };
  }
  return undefined;
}

/** The start and end as the feed sends them: in the event's zone with its TZID, all day as dates, else in UTC. */
function timesOf(
  e: Json,
): { start: DateTime; end: DateTime; allDay?: boolean; timezone?: string } | undefined {
  const zone = typeof e.timezone === 'string' ? e.timezone : '';
  if (e.all_day === true) {
    const start = utcOf(e.start_date)?.startOf('day');
    const last = utcOf(e.end_date)?.startOf('day');
    // DTEND of a date is exclusive: the day after the last one.
    return start && { start, end: (last && last >= start ? last : start).plus({ days: 1 }), allDay: true };
  }
  if (vtimezoneOf(zone)) {
    const start = wallIn(e.start_date, zone);
    const end = wallIn(e.end_date, zone);
    if (start && end) return { start, end, timezone: zone };
  }
  // A UTC offset (`UTC+2`) or a zone without a VTIMEZONE: exact instants in UTC.
  const start = utcOf(e.utc_start_date);
  return start && { start, end: utcOf(e.utc_end_date) ?? start };
}

/** A calendar of ical-generator's with this gateway's product id; with `info`, its name and refresh interval. */
function calendarOf(info?: CalendarInfo): ICalCalendar {
  return ical({
    prodId: { company: 'calendar-gateway', product: 'calendar/events/v1', language: 'EN' },
    scale: 'gregorian',
    method: ICalCalendarMethod.PUBLISH,
    ...(info && {
      name: escapeText(text(info.name)),
      ttl: info.refreshSeconds > 0 ? info.refreshSeconds : null,
    }),
  });
}

/** Adds one event's VEVENT; notes the zone its times are in. False for an event without a readable start. */
function addEvent(cal: ICalCalendar, e: Json, host: string, zones: Set<string>, masters: Masters): void {
  const times = timesOf(e);
  if (!times) return;
  const series = seriesPartsOf(e, times, masters);
  if (times.timezone) zones.add(times.timezone);
  const modified = utcOf(e.modified_utc) ?? utcOf(e.date_utc) ?? times.start.toUTC();
  const location = locationOf(e.venue);
  const organizer = organizerOf(e.organizer);
  // Paragraphs and line breaks stay: ical-generator writes them as TEXT's escaped `\n`.
  const description = typeof e.description === 'string' ? displayText(e.description) : '';
  cal.createEvent({
    // An override shares its series' UID; its RECURRENCE-ID says which occurrence it replaces.
    id: `event-${series?.uidOf ?? e.id}@${host}`,
    ...(series?.repeating && { repeating: series.repeating }),
    ...(series?.recurrenceId && { recurrenceId: series.recurrenceId }),
    ...(series?.recurrenceDay && { x: { [DAY_ID]: series.recurrenceDay } }),
    ...(series?.recurrenceWall && { x: { [WALL_ID]: series.recurrenceWall } }),
    sequence: Math.max(0, Math.floor(modified.toSeconds() - SEQUENCE_EPOCH)),
    stamp: modified,
    start: times.start,
    end: times.end,
    allDay: times.allDay ?? false,
    ...(times.timezone && { timezone: times.timezone }),
    summary: text(e.title),
    ...(description && { description }),
    ...(typeof e.url === 'string' && e.url && { url: e.url }),
    ...(location && { location }),
    ...(organizer && { organizer }),
    categories: (Array.isArray(e.categories) ? (e.categories as Json[]) : [])
      .map((c) => text(c.name))
      .filter(Boolean)
      .map((name) => ({ name })),
    status: STATUS[String(e.event_status)] ?? ICalEventStatus.CONFIRMED,
  });
}

/** The components of a calendar's text: what lies between its properties and `END:VCALENDAR`. */
const componentsOf = (calendar: string): string => {
  const start = calendar.indexOf('BEGIN:VEVENT');
  return start < 0 ? '' : `${calendar.slice(start, calendar.lastIndexOf('END:VCALENDAR'))}`;
};

/**
 * A feed's events as the renderer reads them: how many, the series masters among them (an override's RECURRENCE-ID
 * needs its master's times, and lists are in start order, so an override may come first), and each event, made when
 * the slice that renders it asks for it. A feed of 2000 held its 2000 records (6.7 KB of heap each) from the first
 * serialised to the last rendered, and every scavenge in between copied them (20–30 ms pauses in a cold feed); made
 * in the slice that renders them, they die young.
 */
export interface FeedEvents {
  readonly length: number;
  /** Every event with a rule of its own among them, or more (the others are passed over). */
  readonly masters: readonly Json[];
  at(i: number): Json;
}

/** Records already made, as a feed's events. */
const feedEventsOf = (events: readonly Json[]): FeedEvents => ({
  length: events.length,
  masters: events,
  at: (i) => events[i]!,
});

const asFeed = (events: readonly Json[] | FeedEvents): FeedEvents =>
  Array.isArray(events) ? feedEventsOf(events) : (events as FeedEvents);

/** Events rendered between two turns of the event loop at most: a feed of thousands never holds it for long. */
export const RENDER_SLICE = 10;
/**
 * A slice also ends once it has taken this long: the first events a process renders run cold (the converters of
 * descriptions, luxon's zones, ical-generator's code not yet compiled), ten of them 18 ms of a cold feed's first slice.
 */
const SLICE_MS = 3;

/**
 * The parts of one VCALENDAR of the events, in the order given: the calendar's properties, a VTIMEZONE for every TZID
 * its events use, then the events, rendered by ical-generator at most `slice` at a time (and at most SLICE_MS) with a
 * turn of the event loop between slices. `encode` turns each part into what is kept of it, in the slice that made it.
 * Events without a readable start are left out.
 */
async function calendarParts<T>(
  events: FeedEvents,
  info: CalendarInfo,
  slice: number,
  encode: (text: string) => T,
): Promise<T[]> {
  const head = calendarOf(info).toString();
  const zones = new Set<string>();
  const masters = mastersOf(events.masters, timesOf);
  const parts: T[] = [];
  for (let i = 0; i < events.length; ) {
    if (i) await nextSlice();
    const cal = calendarOf();
    const t0 = performance.now();
    const end = Math.min(events.length, i + slice);
    while (i < end) {
      addEvent(cal, events.at(i++), info.host, zones, masters);
      if (sliceOver(t0, SLICE_MS)) break;
    }
    parts.push(encode(withDateIds(componentsOf(cal.toString()))));
  }
  const timezones = [...zones].map((z) => `${(vtimezoneOf(z) ?? '').replace(/\r?\n/g, '\r\n').trim()}\r\n`);
  return [
    encode(`${head.slice(0, head.lastIndexOf('END:VCALENDAR'))}${timezones.join('')}`),
    ...parts,
    encode(END),
  ];
}
const END = 'END:VCALENDAR\r\n';

/** `calendarParts` as one text. */
export async function renderCalendar(
  events: readonly Json[] | FeedEvents,
  info: CalendarInfo,
  slice = RENDER_SLICE,
): Promise<string> {
  return (await calendarParts(asFeed(events), info, slice, (text) => text)).join('');
}

/**
 * `calendarParts` as its UTF-8 bytes, each part encoded in the slice that rendered it: a feed of 2000 events is 1.2 MB,
 * which as one string took a task of its own to flatten and encode (12 ms of a cold feed's).
 */
export async function renderCalendarBytes(
  events: readonly Json[] | FeedEvents,
  info: CalendarInfo,
  slice = RENDER_SLICE,
): Promise<Buffer> {
  return Buffer.concat(await calendarParts(asFeed(events), info, slice, utf8Bytes));
}

/**
 * Renders one made-up event of every part (an HTML description, a venue, an organizer, categories, the site's zone) and
 * drops it: called at start-up, before the instance is ready, so that a feed's first slice does not pay for compiling
 * ical-generator's, luxon's and html-to-text's code (a process's first cold feed ran a 16–18 ms slice).
 */
export async function warmRenderer(zone: string): Promise<void> {
  const event = {
    id: 1,
    title: 'Warm-up &#8211; café',
    description:
      '<p>First <strong>line</strong>.</p><ul><li>One</li></ul><p><a href="https://example.com/">A link</a></p>',
    url: 'https://example.com/event/warm-up/',
    modified_utc: '2026-01-01 00:00:00',
    start_date: '2026-01-02 18:00:00',
    end_date: '2026-01-02 20:00:00',
    timezone: zone,
    all_day: false,
    event_status: 'scheduled',
    venue: { id: 2, venue: 'Hall', address: '1 High St', city: 'Lisbon', geo_lat: 38.7, geo_lng: -9.14 },
    organizer: [{ id: 3, organizer: 'Ana', email: 'ana@example.com' }],
    categories: [{ name: 'Music' }],
  };
  await renderCalendarBytes([event], { name: 'warm-up', host: 'example.com', refreshSeconds: 0 });
}
