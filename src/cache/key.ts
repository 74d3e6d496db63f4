// The cache key: route id + the route's parsed arguments (canonical) + language + audience + public base URL.
import { createHash } from 'node:crypto';

export interface KeyParts {
  /** Contract route id, e.g. `events.list`. */
  route: string;
  /**
   * The route's arguments as the one parser of the request returned them (src/http/parse-args.ts): known names only,
   * values in their parsed form (`per_page=07` is `7`, `featured=TRUE` is `true`), defaults applied. What the
   * handler reads, so two requests with equal arguments get equal answers, and anything else in the query string
   * (a tracking parameter, a name no route takes, WordPress's global parameters) cannot split the cache.
   */
  args: Record<string, unknown>;
  language: string;
  /** `anonymous` or a per-caller hash; only anonymous entries are ever stored, but the key still says whose. */
  audience: string;
  /** Scheme + host (+ path prefix) that absolute URLs in the body are built from. */
  base: string;
}

/**
 * A value in one canonical JSON form: object keys sorted, absent (`undefined`) members left out, list items in
 * their order (a list's order is part of its meaning and of what `rest_url` echoes). Injective on parsed arguments:
 * `['a,b']` and `['a', 'b']` stay apart, as do `1` and `'1'`.
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : canonical(v)));
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = canonical(v);
    }
    return out;
  }
  return value;
}

/** Arguments in a canonical order and form: `page=1&per_page=7&search=%22jazz%22` (each value as JSON). Pure. */
export function canonicalArgs(args: Record<string, unknown>): string {
  return Object.keys(args)
    .filter((k) => args[k] !== undefined)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(JSON.stringify(canonical(args[k])))}`)
    .join('&');
}

/** The canonical key string. Every part is URI-encoded, so the `|` separators cannot be forged by a value. */
export function cacheKey(p: KeyParts): string {
  const enc = encodeURIComponent;
  return `${enc(p.route)}|${enc(p.language)}|${enc(p.audience)}|${enc(p.base)}|${canonicalArgs(p.args)}`;
}

/** A fixed-length form for Redis (keys there are shared by every instance; long query strings stay bounded). */
export const hashedKey = (key: string): string => createHash('sha256').update(key).digest('base64url');
