// TEC's event record (§2.1) from a wp/v2 post, its mapping and the already fetched related objects.
import { EVENT_STATUSES, eventRecord } from '../contract/records.ts';
import { decodeMeta, readField, readRecord } from '../mapping/codec.ts';
import { recurrenceFieldsOf, type SeriesRule } from '../recurrence/answer.ts';
import type { WpPost } from '../wp/types.ts';
import { escHtml, globalId, postHead, renderedText } from './common.ts';
import { formatCost } from './cost.ts';
import { abbrOf, detailsOf, utcOf } from './dates.ts';
import { serializeImage } from './image.ts';
import { jsonLdEvent } from './jsonld.ts';
import { serializeOrganizer, serializeVenue } from './linked.ts';
import { assemble, forCaller } from './protect.ts';
import { serializeTerm } from './terms.ts';
import type { Json, Related, SerializeOptions } from './types.ts';

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const ids = (v: unknown): number[] =>
  (Array.isArray(v) ? v : v === null || v === undefined ? [] : [v])
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);

/**
 * Linked records made once per page: the events of a list or feed that share a venue, an organizer or a term share
 * its record, made the first time one of them links it (each cost as much as a small event). Keyed by the page's
 * `Related` and by what a linked record depends on besides its source: the context (single reads add `json_ld`) and
 * the password (blanking).
 */
const made = new WeakMap<Related, Map<string, Json>>();

function once(related: Related, o: SerializeOptions, what: string, make: () => Json): Json {
  let records = made.get(related);
  if (!records) {
    records = new Map();
    made.set(related, records);
  }
  const key = `${o.context}|${o.password ?? ''}|${what}`;
  let record = records.get(key);
  if (!record) {
    record = make();
    records.set(key, record);
  }
  return record;
}

function termsOf(post: WpPost, kind: 'categories' | 'tags', related: Related, o: SerializeOptions): Json[] {
  const tax = o.mapping.event[kind];
  if (!tax) return [];
  const out: Json[] = [];
  for (const id of ids(post[tax.restBase])) {
    const term = related.terms.get(id);
    if (term) {
      out.push(
        once(related, o, `${kind}:${id}`, () =>
          serializeTerm(term, kind, { site: o.site, embedded: true, taxonomy: tax.taxonomy }),
        ),
      );
    }
  }
  return out;
}

function costRows(post: WpPost, o: SerializeOptions): string[] {
  const src = o.mapping.event.fields.cost;
  if (!src) return [];
  // `_EventCost` holds one row per value; read every row whatever format the mapping names.
  if ('meta' in src) return decodeMeta(post.meta?.[src.meta], 'string-list') as string[];
  const v = readField(post, src);
  return v === null || v === '' ? [] : [String(v)];
}

/** The stored status as one of TEC's; no row, an empty one or an unknown value is a scheduled event. */
const eventStatusOf = (v: unknown): string =>
  (EVENT_STATUSES as readonly unknown[]).includes(v) ? String(v) : 'scheduled';

/** An override's series as the answer reads its rule: the series post of `related`, read for its own start. */
function seriesRuleOf(related: Related, seriesId: number, o: SerializeOptions): SeriesRule | undefined {
  const series = related.series?.get(seriesId);
  if (!series) return undefined;
  const v = readRecord(o.mapping, 'event', series);
  const timezone = str(v.timezone) || o.site.timezone;
  return { text: v.recurrence, start: { start: str(v.start_date), timezone, allDay: v.all_day === true } };
}

export function serializeEvent(post: WpPost, related: Related, o: SerializeOptions): Json {
  const fields = o.mapping.event.fields;
  const v = readRecord(o.mapping, 'event', post);
  const start = str(v.start_date);
  const end = str(v.end_date) || start;
  // The zone the wall clocks are in: the event's own, else the site's (TEC stores the site zone on save).
  const zone = str(v.timezone) || o.site.timezone;
  const gid = globalId(o.site.home, post.id);

  const venues = ids(v.venue).flatMap((id) => {
    const p = related.venues.get(id);
    return p ? [once(related, o, `venue:${id}`, () => serializeVenue(p, related, o))] : [];
  });
  const organizers = ids(v.organizer).flatMap((id) => {
    const p = related.organizers.get(id);
    return p ? [once(related, o, `organizer:${id}`, () => serializeOrganizer(p, related, o))] : [];
  });
  const { cost, cost_details } = formatCost(costRows(post, o), {
    symbol: str(v.currency_symbol),
    code: str(v.currency_code),
    position: str(v.currency_position),
  });
  const utcStart = str(v.utc_start_date) || utcOf(start, zone);
  const utcEnd = str(v.utc_end_date) || utcOf(end, zone);

  // Every field but the stored ones sent as they are (slug, all_day, hide_from_listings, featured).
  const record = assemble(
    eventRecord,
    {
      ...postHead(post, v.author),
      global_id: gid,
      global_id_lineage: [gid],
      rest_url: `${o.site.apiRoot}/events/${post.id}`,
      title: renderedText(post, fields.title, 'title'),
      description: renderedText(post, fields.description, 'text'),
      excerpt: renderedText(post, fields.excerpt, 'text'),
      image: serializeImage(typeof v.image === 'number' ? related.media.get(v.image) : undefined),
      start_date: start,
      start_date_details: detailsOf(start),
      end_date: end,
      end_date_details: detailsOf(end),
      utc_start_date: utcStart,
      utc_start_date_details: detailsOf(utcStart),
      utc_end_date: utcEnd,
      utc_end_date_details: detailsOf(utcEnd),
      // Stored values as TEC prints them ('' when the row is missing); computed only where the mapping has none.
      timezone: fields.timezone ? str(v.timezone) : o.site.timezone,
      timezone_abbr: fields.timezone_abbr ? str(v.timezone_abbr) : abbrOf(start, zone),
      cost,
      cost_details,
      // TEC falls back to the permalink when the row is missing; wp/v2 cannot tell missing from empty.
      website: v.website ? escHtml(str(v.website)) : post.link,
      show_map: fields.show_map ? v.show_map !== false : true,
      show_map_link: fields.show_map_link ? v.show_map_link !== false : true,
      sticky: typeof v.sticky === 'boolean' ? v.sticky : v.sticky === -1,
      event_status: eventStatusOf(v.event_status),
      categories: termsOf(post, 'categories', related, o),
      tags: termsOf(post, 'tags', related, o),
      venue: venues.length === 0 ? [] : venues.length === 1 ? venues[0] : venues,
      organizer: organizers,
      custom_fields: [],
      ...recurrenceFieldsOf(
        post.id,
        v,
        { start, timezone: zone, allDay: v.all_day === true },
        utcStart,
        seriesRuleOf(related, Number(v.series_parent), o),
      ),
    },
    v,
  );
  // JSON-LD is built from the record as the caller sees it, so it never holds a blanked value.
  return forCaller(eventRecord, post, record, o, (shown) => jsonLdEvent(shown, zone));
}
