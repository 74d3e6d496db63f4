// Finds a WordPress site's REST root from whatever URL was configured, as WordPress clients do (RFC 8288 Link).

/** The `rel="https://api.w.org/"` target of a `Link` header, if any. */
export function apiLinkOf(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (m && /\brel\s*=\s*"?https:\/\/api\.w\.org\/"?/i.test(m[2]!)) return m[1];
  }
  return undefined;
}

export interface Discovered {
  /** The REST root the gateway calls, without a trailing slash; undefined when the URL answered but names none. */
  root: string | undefined;
  /**
   * The same REST root as WordPress names it in its answers (its `home` option's scheme and host), when that differs
   * from `root`: a container reaches `http://wordpress/wp-json` while the site calls itself `http://localhost:8080`.
   */
  canonical?: string;
  /** HTTP status of the configured URL's answer. */
  status: number;
  /** True when the configured URL was not the REST root itself (the log says what to set instead). */
  moved: boolean;
}

interface RestIndex {
  namespaces: unknown[];
  home?: unknown;
  url?: unknown;
}

const isRestIndex = (body: unknown): body is RestIndex =>
  typeof body === 'object' && body !== null && Array.isArray((body as { namespaces?: unknown }).namespaces);

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/** The site URL a REST index names (`home`, where WordPress's rest_url() lives, else `url`), if it is one. */
function homeOf(index: RestIndex): URL | undefined {
  for (const v of [index.home, index.url]) {
    if (typeof v !== 'string') continue;
    try {
      return new URL(v);
    } catch {
      // not a URL: try the next
    }
  }
  return undefined;
}

/** `url`'s JSON body, or null when it is none; redirects are not followed unless `follow`. */
async function getJson(url: string, timeoutMs: number, follow: boolean) {
  const res = await fetch(url, {
    headers: { Accept: 'application/json' },
    redirect: follow ? 'follow' : 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text().catch(() => '');
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // an HTML page: the caller looks at its Link header
  }
  return { res, body };
}

/**
 * The REST root with the scheme and host WordPress's own answers use, when they differ from the root's: links in
 * WordPress's answers (`_links`, `Location`) start with it.
 */
function canonicalOf(root: string, index: RestIndex): string | undefined {
  const home = homeOf(index);
  const at = new URL(root);
  if (!home || home.origin === at.origin) return undefined;
  return `${home.origin}${trimSlash(root.slice(at.origin.length))}`;
}

/**
 * `url` itself when it answers a REST index, else the REST root its `Link` header names (the site's home page
 * sends one). The Link names the site as WordPress knows it (its `home` option), which may be a host the gateway
 * cannot reach (`http://localhost:8080` seen from a container that reaches WordPress as `http://wordpress`): when
 * the same path under the operator's scheme and host answers the REST index of that same site (its `home` is the
 * Link's site), the operator's host is kept. Network failures are thrown as they are, so the caller can tell "down"
 * from "wrong URL".
 */
export async function discoverRestRoot(url: string, timeoutMs: number): Promise<Discovered> {
  const base = trimSlash(url);
  const { res, body } = await getJson(`${base}/`, timeoutMs, true);
  if (isRestIndex(body)) {
    const canonical = canonicalOf(base, body);
    return { root: base, status: res.status, moved: false, ...(canonical ? { canonical } : {}) };
  }
  const linkedHref = apiLinkOf(res.headers.get('link'));
  if (!linkedHref) return { root: undefined, status: res.status, moved: false };
  const linked = new URL(linkedHref, `${base}/`);
  const operator = new URL(base);
  const named = { root: trimSlash(linked.href), status: res.status, moved: true };
  if (linked.origin === operator.origin) return named;
  // The Link's path and query under the operator's origin: a redirect (to https, to the Link's host) is not taken,
  // since writes must not be sent through one.
  const candidate = `${operator.origin}${linked.pathname}${linked.search}`;
  const other = await getJson(candidate, timeoutMs, false).catch(() => undefined);
  if (!other || !isRestIndex(other.body)) return named;
  const home = homeOf(other.body);
  const sameSite = home !== undefined && linked.href.startsWith(`${trimSlash(home.href)}/`);
  if (!sameSite) return named;
  return { root: trimSlash(candidate), canonical: named.root, status: res.status, moved: true };
}
