// TEC's term objects: embedded in events (WP_Term fields + urls) and the /categories, /tags list form.
import { categoryRecord, tagRecord } from '../contract/records.ts';
import type { WpTerm } from '../wp/types.ts';
import { publicMeta } from './meta.ts';
import { assemble } from './protect.ts';
import type { Json, SiteInfo } from './types.ts';

export interface TermOptions {
  site: SiteInfo;
  /** Embedded in an event record (WP_Term shape) or a /categories, /tags item (terms-controller shape). */
  embedded: boolean;
  /** The mapping's taxonomy name; defaults to the term's own `taxonomy`. */
  taxonomy?: string;
}

function urlsOf(id: number, parent: number, kind: 'categories' | 'tags', apiRoot: string): Json {
  const urls: Json = { self: `${apiRoot}/${kind}/${id}`, collection: `${apiRoot}/${kind}` };
  if (parent) urls.up = `${apiRoot}/${kind}/${parent}`;
  return urls;
}

/**
 * Embedded: `(array) WP_Term` with `term_id` renamed to `id` (so `id` lands after `filter`), then `urls`.
 * List/single: the WP terms-controller item with `link` renamed to `url` — PHP appends a renamed key, so `url`
 * comes after `meta` — and `_links` removed; `parent` only for hierarchical (categories).
 */
export function serializeTerm(term: WpTerm, kind: 'categories' | 'tags', o: TermOptions): Json {
  const parent = term.parent ?? 0;
  const taxonomy = o.taxonomy ?? term.taxonomy;
  const urls = urlsOf(term.id, parent, kind, o.site.apiRoot);
  if (o.embedded) {
    return {
      name: term.name,
      slug: term.slug,
      term_group: 0,
      term_taxonomy_id: term.id,
      taxonomy,
      description: term.description ?? '',
      parent,
      count: term.count ?? 0,
      filter: 'raw',
      id: term.id,
      urls,
    };
  }
  return assemble(
    kind === 'categories' ? categoryRecord : tagRecord,
    {
      id: term.id,
      count: term.count ?? 0,
      description: term.description ?? '',
      name: term.name,
      slug: term.slug,
      taxonomy,
      parent,
      meta: publicMeta(term.meta),
      url: term.link,
      urls,
    },
    {},
  );
}
