// schema.org JSON-LD as TEC attaches it in single context (§2.7): Event, Place (venue), Person (organizer).
import { DateTime } from 'luxon';
import { zoneOf } from '../dates/zones.ts';
import { displayText } from '../text/display.ts';
import type { Json } from './types.ts';

const imageUrl = (image: unknown): string | undefined =>
  image && typeof image === 'object' && typeof (image as Json).url === 'string'
    ? ((image as Json).url as string)
    : undefined;

/** `Y-m-d H:i:s` in `tz` → ISO 8601 with offset (`2026-11-22T10:00:00-05:00`), as PHP's `c` format prints it. */
export function isoIn(wallClock: string, tz: string): string {
  const dt = DateTime.fromFormat(wallClock, 'yyyy-MM-dd HH:mm:ss', { zone: zoneOf(tz) });
  return dt.isValid ? dt.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ") : '';
}

function withoutEmpty(o: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && v !== '' && v !== null) out[k] = v;
  return out;
}

const base = (type: string, r: Json, nameKey: string): Json =>
  withoutEmpty({
    '@context': 'http://schema.org',
    '@type': type,
    name: r[nameKey],
    // Text, as schema.org's `description` is: tags out, entities decoded, paragraphs and line breaks kept.
    description: displayText(String(r.excerpt || r.description || '')),
    image: imageUrl(r.image),
    url: r.url,
  });

/** A venue record → schema.org `Place` with its `PostalAddress`. */
export function jsonLdVenue(venue: Json): Json {
  const address = withoutEmpty({
    '@type': 'PostalAddress',
    streetAddress: venue.address,
    addressLocality: venue.city,
    addressRegion: venue.stateprovince || venue.state || venue.province,
    postalCode: venue.zip,
    addressCountry: venue.country,
  });
  const geo =
    venue.geo_lat && venue.geo_lng
      ? { '@type': 'GeoCoordinates', latitude: venue.geo_lat, longitude: venue.geo_lng }
      : undefined;
  return withoutEmpty({
    ...base('Place', venue, 'venue'),
    address,
    geo,
    telephone: venue.phone,
    sameAs: venue.website,
  });
}

/** An organizer record → schema.org `Person`. */
export function jsonLdOrganizer(organizer: Json): Json {
  return withoutEmpty({
    ...base('Person', organizer, 'organizer'),
    telephone: organizer.phone,
    email: organizer.email,
    sameAs: organizer.website,
  });
}

const strip = (o: Json): Json => {
  const { '@context': _, ...rest } = o;
  return rest;
};

/** TEC's event statuses as schema.org's `EventStatusType`. */
const SCHEMA_STATUS: Record<string, string> = {
  scheduled: 'https://schema.org/EventScheduled',
  canceled: 'https://schema.org/EventCancelled',
  postponed: 'https://schema.org/EventPostponed',
};

/**
 * `eventStatus` from the record's `event_status`, and the attendance mode from the same record: an event held at a
 * venue is attended there (TEC's offline mode); without a venue nothing says where it is attended, so no mode is
 * claimed (TEC claims offline for every event).
 */
function statusOf(event: Json, venue: Json | undefined): Json {
  const located = Boolean(venue && typeof venue === 'object' && venue.id);
  return {
    eventAttendanceMode: located ? 'https://schema.org/OfflineEventAttendanceMode' : undefined,
    eventStatus: SCHEMA_STATUS[String(event.event_status)] ?? SCHEMA_STATUS.scheduled,
  };
}

/** An event record (with its nested venue/organizers already serialised) → schema.org `Event`. */
export function jsonLdEvent(event: Json, tz: string): Json {
  const venue = Array.isArray(event.venue) ? (event.venue[0] as Json | undefined) : (event.venue as Json);
  const organizers = (Array.isArray(event.organizer) ? event.organizer : []) as Json[];
  const details = event.cost_details as { values?: string[]; currency_code?: string } | undefined;
  const price = details?.values?.[0];
  const offers =
    event.cost && price !== undefined
      ? withoutEmpty({
          '@type': 'Offer',
          price,
          priceCurrency: details?.currency_code,
          url: event.url,
          category: 'primary',
          availability: 'inStock',
          validFrom: isoIn(String(event.date), tz),
        })
      : undefined;
  return withoutEmpty({
    ...base('Event', event, 'title'),
    ...statusOf(event, venue),
    startDate: isoIn(String(event.start_date), tz),
    endDate: isoIn(String(event.end_date), tz),
    location: venue && typeof venue === 'object' && venue.id ? strip(jsonLdVenue(venue)) : undefined,
    organizer: organizers[0] ? strip(jsonLdOrganizer(organizers[0])) : undefined,
    performer: 'Organization',
    offers,
  });
}
