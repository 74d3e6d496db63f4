// TEC's venue and organizer records (§2.2, §2.3): empty keys dropped, flags and global ids appended.
import { readRecord } from '../mapping/codec.ts';
import type { WpPost } from '../wp/types.ts';
import { canSeeProtected, dropEmpty, globalId, insertBefore, postHead, renderedText } from './common.ts';
import { serializeImage } from './image.ts';
import { jsonLdOrganizer, jsonLdVenue } from './jsonld.ts';
import { blankProtected } from './protect.ts';
import type { Json, Related, SerializeOptions } from './types.ts';

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const US = new Set(['', 'US', 'USA', 'United States', 'United States of America']);

/**
 * The record as this caller may see it, then its JSON-LD (single context) built from that, so no protected value
 * reaches `json_ld` (telephone, sameAs, address) when the record itself is blanked.
 */
function guard(
  post: WpPost,
  record: Json,
  o: SerializeOptions,
  jsonLd: (r: Json) => Json,
  before: string,
): Json {
  // Write responses go to the editor who just saved the post; TEC blanks only on reads.
  const shown = o.context === 'write' || canSeeProtected(post, o.password) ? record : blankProtected(record);
  return o.context === 'single' ? insertBefore(shown, before, 'json_ld', jsonLd(shown)) : shown;
}

function withGlobalIds(record: Json, id: number, o: SerializeOptions): Json {
  const gid = globalId(o.site.home, id);
  record.global_id = gid;
  record.global_id_lineage = [gid];
  return record;
}

export function serializeVenue(post: WpPost, related: Pick<Related, 'media'>, o: SerializeOptions): Json {
  const fields = o.mapping.venue.fields;
  const v = readRecord(o.mapping, 'venue', post);
  const country = str(v.country);
  // TEC derives `_VenueStateProvince` from State for US (or no) country, else Province; computed when unmapped.
  const stateprovince = fields.stateprovince
    ? str(v.stateprovince)
    : US.has(country)
      ? str(v.state)
      : str(v.province);
  const record: Json = {
    ...postHead(post, v.author),
    venue: renderedText(post, fields.venue, 'title'),
    description: renderedText(post, fields.description, 'text'),
    excerpt: renderedText(post, fields.excerpt, 'text'),
    slug: str(v.slug),
    image: serializeImage(typeof v.image === 'number' ? related.media.get(v.image) : undefined),
    address: str(v.address),
    city: str(v.city),
    country,
    province: str(v.province),
    state: str(v.state),
    zip: str(v.zip),
    phone: str(v.phone),
    website: str(v.website),
    stateprovince,
  };
  const out = dropEmpty(record);
  // Absent flags mean "show" in TEC (`isset ? truthy : true`); the codec applies the mapping's default.
  out.show_map = fields.show_map ? v.show_map !== false : true;
  out.show_map_link = fields.show_map_link ? v.show_map_link !== false : true;
  return guard(post, withGlobalIds(out, post.id, o), o, jsonLdVenue, 'show_map');
}

export function serializeOrganizer(post: WpPost, related: Pick<Related, 'media'>, o: SerializeOptions): Json {
  const fields = o.mapping.organizer.fields;
  const v = readRecord(o.mapping, 'organizer', post);
  const record: Json = {
    ...postHead(post, v.author),
    organizer: renderedText(post, fields.organizer, 'title'),
    description: renderedText(post, fields.description, 'text'),
    excerpt: renderedText(post, fields.excerpt, 'text'),
    slug: str(v.slug),
    image: serializeImage(typeof v.image === 'number' ? related.media.get(v.image) : undefined),
    phone: str(v.phone),
    website: str(v.website),
    email: str(v.email),
  };
  return guard(post, dropEmpty(withGlobalIds(record, post.id, o)), o, jsonLdOrganizer, 'global_id');
}
