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
  /** The REST root, without a trailing slash; undefined when the URL answered but names none. */
  root: string | undefined;
  /** HTTP status of the configured URL's answer. */
  status: number;
  /** True when the configured URL was not the REST root itself (the log says what to set instead). */
  moved: boolean;
}

const isRestIndex = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && Array.isArray((body as { namespaces?: unknown }).namespaces);

/**
 * `url` itself when it answers a REST index, else the REST root its `Link` header names (the site's home page
 * sends one). Network failures are thrown as they are, so the caller can tell "down" from "wrong URL".
 */
export async function discoverRestRoot(url: string, timeoutMs: number): Promise<Discovered> {
  const base = url.replace(/\/+$/, '');
  const res = await fetch(`${base}/`, {
    headers: { Accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text().catch(() => '');
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // an HTML page: look at its Link header
  }
  if (isRestIndex(body)) return { root: base, status: res.status, moved: false };
  const linked = apiLinkOf(res.headers.get('link'));
  if (linked)
    return { root: new URL(linked, `${base}/`).href.replace(/\/+$/, ''), status: res.status, moved: true };
  return { root: undefined, status: res.status, moved: false };
}
