// Event records as an RFC 5545 calendar (ical-generator): what a subscriber's calendar app reads from a feed.
//
// The records are the ones the JSON answer holds for the same caller, so whatever the JSON blanks (a protected
// description) is blank here too. The same records give the same bytes: DTSTAMP is the event's modified time and
// nothing reads the clock, so a feed's ETag holds until an event changes.
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import { plainText } from '../text/plain.ts';

type Json = Record<string, unknown>;

export interface CalendarInfo {
  /** The calendar's name as subscribers see it: the site's, and what the feed is filtered to. */
  name: string;
  /** The site's host, the right-hand side of every UID. */
  host: string;
  /** How long subscribers should wait before they ask again (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
  refreshSeconds: number;
}

const WALL = 'yyyy-MM-dd HH:mm:ss';

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

const text = (v: unknown): string => (typeof v === 'string' ? plainText(v).replace(/\s+/g, ' ').trim() : '');
const utcOf = (wall: unknown): DateTime | undefined => {
  const d = typeof wall === 'string' ? DateTime.fromFormat(wall, WALL, { zone: 'utc' }) : undefined;
  return d?.isValid ? d : undefined;
};

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
    const start = DateTime.fromFormat(String(e.start_date), WALL, { zone });
    const end = DateTime.fromFormat(String(e.end_date), WALL, { zone });
    if (start.isValid && end.isValid) return { start, end, timezone: zone };
  }
  // A UTC offset (`UTC+2`) or a zone without a VTIMEZONE: exact instants in UTC.
  const start = utcOf(e.utc_start_date);
  return start && { start, end: utcOf(e.utc_end_date) ?? start };
}

/** One VCALENDAR of the events, in the order given. Events without a readable start are left out. */
export function renderCalendar(events: readonly Json[], info: CalendarInfo): string {
  const cal = ical({
    prodId: { company: 'calendar-gateway', product: 'calendar/events/v1', language: 'EN' },
    name: escapeText(text(info.name)),
    scale: 'gregorian',
    method: ICalCalendarMethod.PUBLISH,
    ttl: info.refreshSeconds > 0 ? info.refreshSeconds : null,
    // No calendar zone (DTSTAMP stays UTC); the generator writes a VTIMEZONE for every event's TZID.
    timezone: { name: null, generator: (zone: string) => vtimezoneOf(zone) ?? null },
  });
  for (const e of events) {
    const times = timesOf(e);
    if (!times) continue;
    const modified = utcOf(e.modified_utc) ?? utcOf(e.date_utc) ?? times.start.toUTC();
    const location = locationOf(e.venue);
    const organizer = organizerOf(e.organizer);
    const description = text(e.description);
    cal.createEvent({
      id: `event-${e.id}@${info.host}`,
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
  return cal.toString();
}
