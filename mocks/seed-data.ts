// Builds the deterministic sample calendar (users, terms, venues, organizers, 230 events) relative to `now`.
import { DateTime } from 'luxon';
import type { FieldSource, Mapping } from '../src/mapping/schema.ts';
import { sanitizeTitle } from '../src/wp/slug.ts';
import {
  CATEGORIES,
  DRAFT_ORGANIZER,
  DRAFT_VENUE,
  ORGANIZERS,
  PROTECTED_VENUE,
  SITE_TIMEZONE,
  TAGS,
  THEMES,
  USERS,
  VENUES,
} from './seed-catalog.ts';
import type { SeedMeta, SeedPost, SeedSite, SeedTerm } from './seed-types.ts';

export const SAMPLE_PASSWORD_PROTECTED = 'letmein';
export { SITE_TIMEZONE } from './seed-catalog.ts';

const STORAGE = 'yyyy-MM-dd HH:mm:ss';

/** mulberry32: a tiny seeded PRNG, so the calendar is the same on every run and on both upstreams. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const slugify = sanitizeTitle;

type Fields = Record<string, FieldSource | undefined>;

/** Writes one calendar value into `meta` in the mapping's storage format; skips fields the mapping lacks. */
function put(
  meta: Record<string, SeedMeta>,
  fields: Fields,
  name: string,
  value: string | number | boolean,
): void {
  const src = fields[name];
  if (!src || !('meta' in src)) return;
  switch (src.format) {
    case 'yes-flag':
      if (value) meta[src.meta] = 'yes';
      return;
    case 'one-flag':
      if (value) meta[src.meta] = '1';
      return;
    case 'bool':
      meta[src.meta] = value ? '1' : '';
      return;
    case 'int':
      meta[src.meta] = Number(value);
      return;
    case 'int-list':
      meta[src.meta] = [Number(value)];
      return;
    case 'string-list':
      meta[src.meta] = [String(value)];
      return;
    default:
      meta[src.meta] = String(value);
  }
}

/** Adds `links[metaKey] = keys` when the mapping stores that link in meta. */
function link(links: Record<string, string[]>, fields: Fields, name: string, keys: string[]): void {
  const src = fields[name];
  if (src && 'meta' in src && keys.length > 0) links[src.meta] = keys;
}

/** PHP-style abbreviation (`EST`, `CEST`, `UTC`); luxon's en-US names say `GMT+1` for Europe. */
function tzAbbr(dt: DateTime): string {
  if (dt.zoneName === 'Europe/Madrid') return dt.isInDST ? 'CEST' : 'CET';
  if (dt.zoneName === 'UTC') return 'UTC';
  return dt.setLocale('en-US').offsetNameShort ?? dt.toFormat('ZZ');
}

/** Event indices with a special status or flag (all below the default 230 events). */
const DRAFT = new Map([
  [30, 'admin'],
  [31, 'contributor'],
  [95, 'contributor'],
  [180, 'editor'],
]);
const PENDING = new Map([
  [44, 'contributor'],
  [101, 'author'],
  [150, 'contributor'],
]);
const PRIVATE = new Set([55, 160]);
const FUTURE = new Set([66, 130, 170]);
const PROTECTED = new Set([77, 140, 200]);
const HIDDEN = new Set([20, 120]);
const STICKY = new Set([12, 60]);
const PUBLISHERS = ['admin', 'editor', 'author'];
const COSTS = ['20', '0', '10 - 25', '$15', '35', ''];
const START_TIMES: Array<[number, number]> = [
  [10, 0],
  [12, 30],
  [14, 0],
  [18, 30],
  [19, 0],
  [20, 0],
  [21, 0],
];

interface EventTimes {
  start: string;
  end: string;
  utcStart: string;
  utcEnd: string;
  duration: string;
  abbr: string;
}

/** `cache`'s value for `key`, made by `make` the first time. */
function once<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let v = cache.get(key);
  if (v === undefined) {
    v = make();
    cache.set(key, v);
  }
  return v;
}

export function buildSeed(mapping: Mapping, now: Date, opts?: { events?: number }): SeedSite {
  const rand = mulberry32(20240601);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const today = DateTime.fromJSDate(now, { zone: SITE_TIMEZONE }).startOf('day');
  const local = (dt: DateTime) => dt.setZone(SITE_TIMEZONE).toFormat(STORAGE);
  const posts: SeedPost[] = [];
  const taxonomies: Record<string, SeedTerm[]> = {};
  const cats = mapping.event.categories;
  const tags = mapping.event.tags;
  if (cats)
    taxonomies[cats.restBase] = CATEGORIES.map((t) =>
      cats.hierarchical ? { ...t } : { ...t, parent: undefined },
    );
  if (tags) taxonomies[tags.restBase] = TAGS.map((t) => ({ ...t }));

  const vf = mapping.venue.fields as Fields;
  const venueKeys = VENUES.map((v, i) => {
    const key = slugify(v.name);
    const meta: Record<string, SeedMeta> = {};
    const us = v.country === 'United States';
    put(meta, vf, 'address', v.address);
    put(meta, vf, 'city', v.city);
    put(meta, vf, 'country', v.country);
    if (us) put(meta, vf, 'state', v.region);
    else put(meta, vf, 'province', v.region);
    put(meta, vf, 'stateprovince', v.region);
    put(meta, vf, 'zip', v.zip);
    put(meta, vf, 'phone', v.phone);
    put(meta, vf, 'website', v.website);
    put(meta, vf, 'geo_lat', v.lat);
    put(meta, vf, 'geo_lng', v.lng);
    put(meta, vf, 'show_map', i % 5 !== 4);
    put(meta, vf, 'show_map_link', true);
    posts.push({
      key,
      kind: 'venue',
      postType: mapping.venue.postType,
      status: i === DRAFT_VENUE ? 'draft' : 'publish',
      ...(i === PROTECTED_VENUE ? { password: SAMPLE_PASSWORD_PROTECTED } : {}),
      author: i % 2 === 0 ? 'admin' : 'editor',
      title: v.name,
      content: `<p>${v.name} is a venue in ${v.city}, ${v.country}.</p>`,
      excerpt: `${v.name} in ${v.city}.`,
      slug: key,
      date: local(today.minus({ days: 300 - i, hours: 3 })),
      meta,
      links: {},
      terms: {},
    });
    return key;
  });

  const of = mapping.organizer.fields as Fields;
  const organizerKeys = ORGANIZERS.map((o, i) => {
    const key = slugify(o.name);
    const meta: Record<string, SeedMeta> = {};
    put(meta, of, 'phone', o.phone);
    put(meta, of, 'website', o.website);
    put(meta, of, 'email', o.email);
    posts.push({
      key,
      kind: 'organizer',
      postType: mapping.organizer.postType,
      status: i === DRAFT_ORGANIZER ? 'draft' : 'publish',
      author: i % 2 === 0 ? 'editor' : 'admin',
      title: o.name,
      content: `<p>${o.name} organises events around town.</p>`,
      excerpt: `Events by ${o.name}.`,
      slug: key,
      date: local(today.minus({ days: 280 - i, hours: 5 })),
      meta,
      links: {},
      terms: {},
    });
    return key;
  });

  const ef = mapping.event.fields as Fields;
  const hasTimezone = Boolean(ef.timezone);
  const publicVenues = VENUES.map((_, i) => i).filter((i) => i !== DRAFT_VENUE && i !== PROTECTED_VENUE);
  const total = opts?.events ?? 230;
  const slugCount = new Map<string, number>();
  const times = new Map<string, EventTimes>();
  const dates = new Map<string, string>();
  for (let i = 0; i < total; i++) {
    const theme = pick(THEMES);
    // A few events in the past weeks, the rest spread over the next ~6 months.
    const dayOffset = i < 8 ? -(3 + i * 4) : 1 + Math.floor(((i - 8) * 182) / Math.max(1, total - 8));
    let tz = SITE_TIMEZONE;
    if (hasTimezone && i % 11 === 4) tz = 'Europe/Madrid';
    else if (hasTimezone && i % 11 === 7) tz = 'America/Los_Angeles';
    else if (hasTimezone && i % 23 === 10) tz = 'UTC';
    let venue: number | undefined = pick(publicVenues);
    if (tz === 'Europe/Madrid') venue = pick([10, 11]);
    if (tz === 'America/Los_Angeles') venue = 7;
    if (tz === 'UTC' || i % 13 === 5) venue = undefined;
    const allDay = tz === SITE_TIMEZONE && i % 9 === 2;
    const extraDays = i % 15 === 6 ? 1 + (i % 3) : 0;

    // The same day, zone and times come back thousands of times in a large calendar: time zone arithmetic
    // (luxon's, through Intl) is done once per combination.
    const [hour, minute] = allDay ? [0, 0] : pick(START_TIMES);
    const minutes = allDay ? 0 : pick([60, 90, 120, 150, 180]);
    const when = once(times, `${dayOffset} ${tz} ${allDay} ${extraDays} ${hour}:${minute} ${minutes}`, () => {
      const day = today.plus({ days: dayOffset });
      let start: DateTime;
      let end: DateTime;
      if (allDay) {
        start = DateTime.fromObject({ year: day.year, month: day.month, day: day.day }, { zone: tz });
        end = start.plus({ days: extraDays }).set({ hour: 23, minute: 59, second: 59 });
      } else {
        start = DateTime.fromObject(
          { year: day.year, month: day.month, day: day.day, hour, minute },
          { zone: tz },
        );
        end = start.plus({ days: extraDays, minutes });
      }
      return {
        start: start.toFormat(STORAGE),
        end: end.toFormat(STORAGE),
        utcStart: start.toUTC().toFormat(STORAGE),
        utcEnd: end.toUTC().toFormat(STORAGE),
        duration: String(Math.round(end.diff(start, 'seconds').seconds)),
        abbr: tzAbbr(start),
      };
    });

    const venueName = venue === undefined ? undefined : VENUES[venue]?.name;
    const title = venueName
      ? theme.title.replace('{venue}', venueName)
      : theme.title.replace(' at {venue}', ' Online');
    const base = slugify(title);
    const n = (slugCount.get(base) ?? 0) + 1;
    slugCount.set(base, n);
    const slug = n === 1 ? base : `${base}-${n}`;

    const free = theme.tags.includes('free');
    const cost = free ? (i % 2 === 0 ? '0' : '') : pick(COSTS);
    const euro = tz === 'Europe/Madrid';
    const meta: Record<string, SeedMeta> = {};
    put(meta, ef, 'start_date', when.start);
    put(meta, ef, 'end_date', when.end);
    put(meta, ef, 'utc_start_date', when.utcStart);
    put(meta, ef, 'utc_end_date', when.utcEnd);
    put(meta, ef, 'duration', when.duration);
    put(meta, ef, 'timezone', tz);
    put(meta, ef, 'timezone_abbr', when.abbr);
    put(meta, ef, 'all_day', allDay);
    put(meta, ef, 'hide_from_listings', HIDDEN.has(i));
    put(meta, ef, 'featured', i % 12 === 1);
    put(meta, ef, 'show_map', i % 10 !== 9);
    put(meta, ef, 'show_map_link', i % 10 !== 9);
    if (cost !== '') {
      put(meta, ef, 'cost', cost);
      if (cost !== '0') {
        put(meta, ef, 'currency_symbol', euro ? '€' : '$');
        put(meta, ef, 'currency_code', euro ? 'EUR' : 'USD');
        put(meta, ef, 'currency_position', euro ? 'postfix' : 'prefix');
      }
    }
    if (i % 3 === 0) put(meta, ef, 'website', `https://events.example.test/${slug}`);

    const links: Record<string, string[]> = {};
    if (venue !== undefined) link(links, ef, 'venue', [venueKeys[venue] as string]);
    const orgs = i % 17 === 0 ? [] : [theme.organizer];
    if (i % 7 === 3) orgs.push((theme.organizer + 1 + (i % 8)) % DRAFT_ORGANIZER);
    link(
      links,
      ef,
      'organizer',
      orgs.map((o) => organizerKeys[o] as string),
    );

    const terms: Record<string, string[]> = {};
    if (cats) terms[cats.restBase] = i % 19 === 7 ? [theme.category, 'family'] : [theme.category];
    if (tags) terms[tags.restBase] = i % 6 === 5 ? [...theme.tags, 'accessible'] : [...theme.tags];
    if (tags && terms[tags.restBase]) terms[tags.restBase] = [...new Set(terms[tags.restBase])];
    if (cats && terms[cats.restBase]) terms[cats.restBase] = [...new Set(terms[cats.restBase])];

    let status: SeedPost['status'] = 'publish';
    let author = PUBLISHERS[i % PUBLISHERS.length] as string;
    let published = [-(10 + (i % 50) + (i < 8 ? 40 : 0)), 9 + (i % 8)];
    if (DRAFT.has(i)) [status, author] = ['draft', DRAFT.get(i) as string];
    else if (PENDING.has(i)) [status, author] = ['pending', PENDING.get(i) as string];
    else if (PRIVATE.has(i)) status = 'private';
    else if (FUTURE.has(i)) [status, published] = ['future', [3 + (i % 20), 8]];
    const venueCity = venue === undefined ? 'online' : VENUES[venue]?.city;

    posts.push({
      key: slug,
      kind: 'event',
      postType: mapping.event.postType,
      status,
      ...(PROTECTED.has(i) ? { password: SAMPLE_PASSWORD_PROTECTED } : {}),
      author,
      title,
      content: `<p>${theme.blurb}</p>\n<p>Join us ${venueName ? `at ${venueName}` : 'online'} (${venueCity}).</p>`,
      excerpt: theme.blurb,
      slug,
      date: once(dates, String(published), () =>
        local(today.plus({ days: published[0], hours: published[1] })),
      ),
      ...(STICKY.has(i) && ef.sticky ? { menuOrder: -1 } : {}),
      meta,
      links,
      terms,
    });
  }
  return { timezone: SITE_TIMEZONE, users: USERS.map((u) => ({ ...u })), taxonomies, posts };
}
