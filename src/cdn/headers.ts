// Surrogate-key headers: an answer's cache tags in the header a shared cache reads, within that header's budget.

/** The tag headers a shared cache reads: Fastly's, Cloudflare's and Varnish's (vmod xkey). */
export type TagHeader = 'surrogate-key' | 'cache-tag' | 'xkey';

export const TAG_HEADERS: readonly TagHeader[] = ['surrogate-key', 'cache-tag', 'xkey'];

interface HeaderRule {
  separator: string;
  /** Bytes the whole header value may take. */
  budget: number;
  /** Bytes one tag may take. */
  tagMax: number;
}

/**
 * Fastly: Surrogate-Key is space-separated, at most 16 384 bytes, each key at most 1 024 bytes. Cloudflare: Cache-Tag
 * is comma-separated, 16 KB in all, each tag at most 1 024 bytes. Varnish: xkey is space-separated; the limit is
 * Varnish's own `http_resp_hdr_len` (8 KB by default), less room for the header's name.
 */
export const HEADER_RULES: Record<TagHeader, HeaderRule> = {
  'surrogate-key': { separator: ' ', budget: 16_384, tagMax: 1_024 },
  'cache-tag': { separator: ',', budget: 16_384, tagMax: 1_024 },
  xkey: { separator: ' ', budget: 8_000, tagMax: 1_024 },
};

/**
 * A record tag (`event:12`, `term:post_tag:7`) folded into its kind's list tag (`list:event`, `list:term`). Safe
 * because every invalidation of a record also drops its kind's list tag (src/cache/tags.ts `writeTags`, the
 * notifications' plan, the index's and the catalog's change reports all add it): the list tag is purged whenever
 * one of the tags it stands for would have been.
 */
export function foldTag(t: string): string {
  const kind = t.slice(0, t.indexOf(':'));
  if (kind === 'event' || kind === 'venue' || kind === 'organizer') return `list:${kind}`;
  if (kind === 'term') return 'list:term';
  return t;
}

/**
 * The header value for these tags: all of them when they fit the budget, else every record tag folded into its
 * list tag (a long list page is then purged by any change of its kind, never left stale). Pure.
 */
export function tagHeaderValue(tags: readonly string[], header: TagHeader): string {
  const rule = HEADER_RULES[header];
  const fits = (list: readonly string[]) =>
    list.every((t) => Buffer.byteLength(t) <= rule.tagMax) &&
    Buffer.byteLength(list.join(rule.separator)) <= rule.budget;
  if (fits(tags)) return tags.join(rule.separator);
  return [...new Set(tags.map(foldTag))].sort().join(rule.separator);
}

/** The tag headers of an answer, one per header name asked for. Pure. */
export function tagHeadersOf(tags: readonly string[], names: readonly TagHeader[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (tags.length === 0) return out;
  for (const name of names) out[name] = tagHeaderValue(tags, name);
  return out;
}
