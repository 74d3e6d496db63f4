// Secrets out of logged URLs: the password of the user part, and the values of query parameters that carry
// passwords, nonces, keys or tokens.

/**
 * A parameter whose value is a credential, by name: WordPress's `pwd`, `password`, `post_password`, `_wpnonce`,
 * `rp_key`, application passwords (`app_password`), and the usual `key`, `token`, `secret`, `auth`, `signature`.
 * Matched as a part of the name (`access_token`, `api_key`), in any case: redacting too much costs a log reader little.
 */
const SENSITIVE = /pass|pwd|nonce|key|token|secret|auth|signature|credential|session/i;

const REDACTED = '[redacted]';

const nameOf = (pair: string): string => {
  const raw = pair.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/** `scheme://user:password@`: the password of a URL's user part (`redis://:pw@host`, `https://me:pw@site`). */
const USER_PASSWORD = /^([^/?#]*\/\/[^/?#@]*?:)[^/?#]*@/;

/**
 * `url` (absolute or a path with a query) with the password of its user part and the value of every sensitive query
 * parameter replaced by `[redacted]`; the rest of the URL, order and encoding included, is kept as it came. Pure.
 */
export function redactUrl(given: string): string {
  const url = given.replace(USER_PASSWORD, `$1${REDACTED}@`);
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const end = hash === -1 ? url.length : hash;
  const pairs = url.slice(q + 1, end).split('&');
  const kept = pairs.map((pair) =>
    pair.includes('=') && SENSITIVE.test(nameOf(pair))
      ? `${pair.slice(0, pair.indexOf('='))}=${REDACTED}`
      : pair,
  );
  return `${url.slice(0, q + 1)}${kept.join('&')}${url.slice(end)}`;
}

/** Fields of a log line that hold a URL or a path with its query. */
const URL_FIELDS = ['url', 'originalUrl', 'path', 'href'] as const;

/** A log line's object with its URL fields redacted (pino's `formatters.log`); other fields are left alone. */
export function redactLogFields(obj: Record<string, unknown>): Record<string, unknown> {
  let out = obj;
  for (const f of URL_FIELDS) {
    const v = obj[f];
    if (typeof v !== 'string' || !(v.includes('?') || v.includes('@'))) continue;
    const r = redactUrl(v);
    if (r !== v) {
      if (out === obj) out = { ...obj };
      out[f] = r;
    }
  }
  return out;
}
