// A short-lived list of every venue's or organizer's facets (wp/v2 cannot search meta): lists page from it.
import type { LinkedKind } from '../contract/linked.ts';
import type { Deps } from '../deps.ts';
import { plainText } from '../index/facets.ts';
import { type FieldValue, readRecord, wpFieldsOf } from '../mapping/codec.ts';
import type { Mapping } from '../mapping/schema.ts';
import type { WpPost } from '../wp/types.ts';

export interface LinkedFacets {
  id: number;
  status: string;
  slug: string;
  /** Publication date, site-local `Y-m-d H:i:s` (lists are ordered by it, newest first). */
  date: string;
  /** Name as stored (raw), for duplicate detection. */
  name: string;
  /** Raw stored values of the mapped text fields, for duplicate detection. */
  values: Record<string, string>;
  /** Everything TEC's search LIKE-matches, lower-cased, one field per line. */
  searchText: string;
  /** Author's user id (0 when unknown): others' drafts and private records are listed only to editors. */
  author: number;
  /** Has a post password: only the name is searchable for callers who cannot read the rest. */
  protected: boolean;
  /** The name alone, lower-cased: what a protected record's search matches for such callers. */
  nameText: string;
}

/** Statuses crawled: everything an editor could list, plus trash (so trashed ids still exist for 410s). */
const CRAWL_STATUSES = 'publish,future,draft,pending,private,trash';

/** Fields TEC's venue/organizer search looks at besides title, content and excerpt (tec-contract.md §4). */
export const SEARCH_FIELDS: Record<LinkedKind, string[]> = {
  venue: ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  organizer: ['phone', 'email', 'website'],
};

const str = (v: FieldValue | undefined): string => (v === null || v === undefined ? '' : String(v));

/** The facets of one venue/organizer post read with `context=edit` (raw text). Pure. */
export function linkedFacetsOf(kind: LinkedKind, post: WpPost, mapping: Mapping): LinkedFacets {
  const rec = readRecord(mapping, kind, post) as Record<string, FieldValue>;
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec)) if (typeof v === 'string') values[k] = v;
  const name = str(rec[kind]);
  const texts = [
    name,
    str(rec.description),
    str(rec.excerpt),
    ...SEARCH_FIELDS[kind].map((f) => str(rec[f])),
  ];
  return {
    id: post.id,
    status: post.status,
    slug: post.slug,
    date: str(rec.date) || (typeof post.date === 'string' ? post.date.replace('T', ' ') : ''),
    name,
    values,
    // Raw HTML is matched like a LIKE on post_content would; its plain text is added so visible words match too.
    searchText: [...texts, plainText(str(rec.description))].join('\n').toLowerCase(),
    author: Number(rec.author ?? post.author) || 0,
    protected: str(rec.password ?? (post.password as FieldValue | undefined)) !== '',
    nameText: name.toLowerCase(),
  };
}

interface Entry {
  at: number;
  items: Promise<Map<number, LinkedFacets>>;
}

/** One catalog per gateway (kept beside its Deps, not in a request), per kind and language. */
export class LinkedCatalog {
  readonly #deps: Deps;
  readonly #ttlMs: number;
  readonly #entries = new Map<string, Entry>();

  constructor(deps: Deps, ttlMs = 3_000) {
    this.#deps = deps;
    this.#ttlMs = ttlMs;
  }

  /** Every venue/organizer (all statuses), at most `ttlMs` old; concurrent callers share one crawl. */
  async all(kind: LinkedKind, language: string): Promise<Map<number, LinkedFacets>> {
    const key = `${kind}|${language}`;
    const now = Date.now();
    const entry = this.#entries.get(key);
    if (entry && now - entry.at < this.#ttlMs) return entry.items;
    const items = this.#crawl(kind, language);
    this.#entries.set(key, { at: now, items });
    items.catch(() => {
      if (this.#entries.get(key)?.items === items) this.#entries.delete(key);
    });
    return items;
  }

  /** After a write through the gateway: the next use crawls again. */
  invalidate(kind: LinkedKind): void {
    for (const key of [...this.#entries.keys()]) if (key.startsWith(`${kind}|`)) this.#entries.delete(key);
  }

  async #crawl(kind: LinkedKind, language: string): Promise<Map<number, LinkedFacets>> {
    const { wp, mapping } = this.#deps;
    const service = !!wp.options.serviceAuth;
    const fields = wpFieldsOf(mapping, kind, ['date', 'author', 'password']);
    const posts = await wp.all<WpPost>({
      path: `/wp/v2/${mapping[kind].restBase}`,
      // Without a service credential only what the public sees can be indexed.
      query: service
        ? { context: 'edit', status: CRAWL_STATUSES, _fields: fields.join(','), orderby: 'id', order: 'asc' }
        : { _fields: fields.join(','), orderby: 'id', order: 'asc' },
      as: service ? 'service' : 'anonymous',
      language,
    });
    return new Map(posts.map((p) => [p.id, linkedFacetsOf(kind, p, mapping)]));
  }
}

const catalogs = new WeakMap<Deps, LinkedCatalog>();

/** The catalog of a gateway, created on first use. */
export function catalogOf(deps: Deps): LinkedCatalog {
  let c = catalogs.get(deps);
  if (!c) {
    c = new LinkedCatalog(deps);
    catalogs.set(deps, c);
  }
  return c;
}
