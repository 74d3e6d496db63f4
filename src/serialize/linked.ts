// TEC's venue and organizer records (§2.2, §2.3): empty keys dropped, flags and global ids appended.
import { organizerRecord, venueRecord } from '../contract/records.ts';
import { readRecord } from '../mapping/codec.ts';
import type { WpPost } from '../wp/types.ts';
import { globalId, postHead, renderedText } from './common.ts';
import { serializeImage } from './image.ts';
import { jsonLdOrganizer, jsonLdVenue } from './jsonld.ts';
import { assemble, forCaller } from './protect.ts';
import type { Json, Related, SerializeOptions } from './types.ts';

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const US = new Set(['', 'US', 'USA', 'United States', 'United States of America']);

/** What a venue and an organizer work out the same way; the rest of their fields are stored values. */
function computed(
  kind: 'venue' | 'organizer',
  post: WpPost,
  v: Json,
  related: Pick<Related, 'media'>,
  o: SerializeOptions,
): Json {
  const fields = o.mapping[kind].fields;
  const gid = globalId(o.site.home, post.id);
  return {
    ...postHead(post, v.author),
    [kind]: renderedText(post, fields[kind as keyof typeof fields], 'title'),
    description: renderedText(post, fields.description, 'text'),
    excerpt: renderedText(post, fields.excerpt, 'text'),
    image: serializeImage(typeof v.image === 'number' ? related.media.get(v.image) : undefined),
    global_id: gid,
    global_id_lineage: [gid],
  };
}

function coordinatesOf(v: Json): { geo_lat: number; geo_lng: number } {
  const lat = v.geo_lat;
  const lng = v.geo_lng;
  return typeof lat === 'number' && typeof lng === 'number'
    ? { geo_lat: lat, geo_lng: lng }
    : { geo_lat: 0, geo_lng: 0 };
}

export function serializeVenue(post: WpPost, related: Pick<Related, 'media'>, o: SerializeOptions): Json {
  const fields = o.mapping.venue.fields;
  const v = readRecord(o.mapping, 'venue', post);
  // TEC derives `_VenueStateProvince` from State for US (or no) country, else Province; computed when unmapped.
  const stateprovince = fields.stateprovince
    ? str(v.stateprovince)
    : US.has(str(v.country))
      ? str(v.state)
      : str(v.province);
  const record = assemble(
    venueRecord,
    {
      ...computed('venue', post, v, related, o),
      stateprovince,
      // Pro sends both as floats, only when set and not zero (0 is left out as empty); one without the other is none.
      ...coordinatesOf(v),
      // Absent flags mean "show" in TEC (`isset ? truthy : true`); the codec applies the mapping's default.
      show_map: fields.show_map ? v.show_map !== false : true,
      show_map_link: fields.show_map_link ? v.show_map_link !== false : true,
    },
    v,
  );
  return forCaller(venueRecord, post, record, o, jsonLdVenue);
}

export function serializeOrganizer(post: WpPost, related: Pick<Related, 'media'>, o: SerializeOptions): Json {
  const v = readRecord(o.mapping, 'organizer', post);
  const record = assemble(organizerRecord, computed('organizer', post, v, related, o), v);
  return forCaller(organizerRecord, post, record, o, jsonLdOrganizer);
}
