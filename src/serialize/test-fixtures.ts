// Hand-built wp/v2 objects (TEC mapping and custom mapping) shared by the serialiser tests.
import custom from '../../mappings/custom.json' with { type: 'json' };
import tec from '../../mappings/tec.json' with { type: 'json' };
import { type Mapping, mappingSchema } from '../mapping/schema.ts';
import type { WpMedia, WpPost, WpTerm } from '../wp/types.ts';
import type { Related, SerializeOptions, SiteInfo } from './types.ts';

export const TEC_MAPPING: Mapping = mappingSchema.parse(tec);
export const CUSTOM_MAPPING: Mapping = mappingSchema.parse(custom);

export const SITE: SiteInfo = {
  home: 'https://example.test/sub',
  apiRoot: 'http://localhost:3000/wp-json/calendar/events/v1',
  timezone: 'America/New_York',
};

export const opts = (mapping: Mapping, extra: Partial<SerializeOptions> = {}): SerializeOptions => ({
  mapping,
  site: SITE,
  context: 'list',
  ...extra,
});

const r = (rendered: string, extra: Partial<{ raw: string; protected: boolean }> = {}) => ({
  rendered,
  ...extra,
});

export function post(id: number, type: string, over: Partial<WpPost> = {}): WpPost {
  return {
    id,
    date: '2026-01-10T09:00:00',
    date_gmt: '2026-01-10T14:00:00',
    modified: '2026-01-11T09:00:00',
    modified_gmt: '2026-01-11T14:00:00',
    slug: `${type}-${id}`,
    status: 'publish',
    type,
    link: `https://example.test/sub/${type}/${type}-${id}/`,
    title: r(`Title ${id} &#8211; live`),
    content: r('<p>Body</p>\n', { protected: false }),
    excerpt: r('<p>Short</p>\n'),
    author: 1,
    featured_media: 0,
    menu_order: 0,
    meta: {},
    ...over,
  };
}

export const MEDIA: WpMedia = {
  id: 50,
  source_url: 'https://example.test/sub/wp-content/uploads/2026/01/poster.jpg',
  mime_type: 'image/jpeg',
  media_details: {
    width: 1200,
    height: 800,
    file: '2026/01/poster.jpg',
    filesize: 12345,
    sizes: {
      thumbnail: {
        width: 150,
        height: 150,
        mime_type: 'image/jpeg',
        source_url: 'https://example.test/sub/wp-content/uploads/2026/01/poster-150x150.jpg',
        filesize: 999,
      },
      full: {
        width: 1200,
        height: 800,
        mime_type: 'image/jpeg',
        source_url: 'https://example.test/sub/wp-content/uploads/2026/01/poster.jpg',
      },
    },
  },
};

const term = (id: number, taxonomy: string, parent = 0): WpTerm => ({
  id,
  count: 3,
  description: `About ${id}`,
  link: `https://example.test/sub/t/${id}/`,
  name: `Term ${id}`,
  slug: `term-${id}`,
  taxonomy,
  parent,
  meta: [],
});

export function related(mapping: Mapping): Related {
  const cat = mapping.event.categories?.taxonomy ?? 'cat';
  const tag = mapping.event.tags?.taxonomy ?? 'tag';
  const v = mapping.venue.fields;
  const venueMeta = (k: keyof typeof v, value: string) => {
    const src = v[k];
    return src && 'meta' in src ? { [src.meta]: value } : {};
  };
  const venue = post(20, mapping.venue.postType, {
    meta: {
      ...venueMeta('address', '1 Main St'),
      ...venueMeta('city', 'Springfield'),
      ...venueMeta('zip', ''),
    },
  });
  const venue2 = post(21, mapping.venue.postType);
  const org = (id: number) => post(id, mapping.organizer.postType, { featured_media: 50 });
  return {
    terms: new Map([
      [3, term(3, cat)],
      [4, term(4, cat, 3)],
      [7, term(7, tag)],
    ]),
    venues: new Map([
      [20, venue],
      [21, venue2],
    ]),
    organizers: new Map([
      [30, org(30)],
      [31, org(31)],
    ]),
    media: new Map([[50, MEDIA]]),
  };
}

/** An event post with meta under the mapping's own keys. */
export function eventPost(
  mapping: Mapping,
  values: Record<string, unknown>,
  over: Partial<WpPost> = {},
): WpPost {
  const meta: Record<string, never> = {};
  const fields = mapping.event.fields as Record<string, { meta?: string } | undefined>;
  for (const [name, value] of Object.entries(values)) {
    const key = fields[name]?.meta;
    if (key) meta[key] = value as never;
  }
  const tax: Record<string, number[]> = {};
  if (mapping.event.categories) tax[mapping.event.categories.restBase] = [3, 4];
  if (mapping.event.tags) tax[mapping.event.tags.restBase] = [7];
  return post(10, mapping.event.postType, { meta, ...tax, ...over });
}
