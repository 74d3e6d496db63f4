// The cache key: route id + normalised request parameters + language + audience + public base URL.
import { createHash } from 'node:crypto';

export interface KeyParts {
  /** Contract route id, e.g. `events.list`. */
  route: string;
  /** Raw parameters as parsed from the query string (and path), before validation. */
  params: Record<string, unknown>;
  language: string;
  /** `anonymous` or a per-caller hash; only anonymous entries are ever stored, but the key still says whose. */
  audience: string;
  /** Scheme + host (+ path prefix) that absolute URLs in the body are built from. */
  base: string;
}

/**
 * Flattens one parameter value into a string. `a[]=1&a[]=2` and `a=1,2` name the same list for every route of
 * the contract (WordPress's `wp_parse_list` accepts both), so both become `1,2`; nested objects (`a[b]=1`) keep
 * their brackets so that no two different requests share a key.
 */
function flatten(prefix: string, value: unknown, out: Array<[string, string]>): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) {
      out.push([prefix, value.map((v) => String(v ?? '')).join(',')]);
    } else {
      value.forEach((v, i) => {
        flatten(`${prefix}[${i}]`, v, out);
      });
    }
    return;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flatten(`${prefix}[${k}]`, v, out);
    return;
  }
  out.push([prefix, String(value)]);
}

/** Parameters in a canonical order and form: `a=1&b=x%20y`. Pure. */
export function normaliseParams(params: Record<string, unknown>): string {
  const pairs: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(params)) flatten(k, v, pairs);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/** The canonical key string. Every part is URI-encoded, so the `|` separators cannot be forged by a value. */
export function cacheKey(p: KeyParts): string {
  const enc = encodeURIComponent;
  return `${enc(p.route)}|${enc(p.language)}|${enc(p.audience)}|${enc(p.base)}|${normaliseParams(p.params)}`;
}

/** A fixed-length form for Redis (keys there are shared by every instance; long query strings stay bounded). */
export const hashedKey = (key: string): string => createHash('sha256').update(key).digest('base64url');
