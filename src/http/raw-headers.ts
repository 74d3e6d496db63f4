// The few request headers the cache's fast path reads, taken from the raw header lines: reading `req.headers` makes
// Node build the whole header object (every name lower-cased, known fields matched), 2.3 % of a cached hit's CPU in a
// profile of `npm run bench:ceiling`'s load, which raw node:http never pays.
import type { IncomingMessage } from 'node:http';

/** What the fast path reads of a request: absent headers are undefined. */
export interface HitHeaders {
  /** Authorization, Cookie or X-WP-Nonce is present (src/http/credentials.ts `mayCarryCredentials`). */
  credentials: boolean;
  host?: string;
  forwardedProto?: string;
  requestId?: string;
  origin?: string;
  acceptEncoding?: string;
  ifNoneMatch?: string;
}

/** The slot of each header read, by its lower-cased name. */
const SLOTS: Record<string, keyof HitHeaders> = {
  authorization: 'credentials',
  cookie: 'credentials',
  'x-wp-nonce': 'credentials',
  host: 'host',
  'x-forwarded-proto': 'forwardedProto',
  'x-request-id': 'requestId',
  origin: 'origin',
  'accept-encoding': 'acceptEncoding',
  'if-none-match': 'ifNoneMatch',
};
/** Lengths of those names: most header lines (User-Agent, Accept, Connection) are passed over on their length. */
const LENGTHS = new Set(Object.keys(SLOTS).map((k) => k.length));

/**
 * The headers of `raw` (name, value, name, value…: `req.rawHeaders`) as `req.headers` would give them, or undefined
 * when one of them comes more than once: Node then keeps the first or joins them, and the caller reads `req.headers`
 * for its exact rules. Pure.
 */
export function hitHeaders(raw: readonly string[]): HitHeaders | undefined {
  const out: HitHeaders = { credentials: false };
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (!LENGTHS.has(name.length)) continue;
    const slot = SLOTS[name.toLowerCase()];
    if (slot === undefined) continue;
    if (slot === 'credentials') {
      out.credentials = true;
      continue;
    }
    if (out[slot] !== undefined) return undefined;
    out[slot] = raw[i + 1]!;
  }
  return out;
}

/** `hitHeaders` of a request, from `req.headers` when its raw lines repeat one of them. */
export function hitHeadersOf(req: IncomingMessage): HitHeaders {
  const fast = hitHeaders(req.rawHeaders);
  if (fast) return fast;
  const h = req.headers;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);
  return {
    credentials: h.authorization !== undefined || h.cookie !== undefined || h['x-wp-nonce'] !== undefined,
    host: h.host,
    forwardedProto: one(h['x-forwarded-proto']),
    requestId: one(h['x-request-id']),
    origin: h.origin,
    acceptEncoding: h['accept-encoding'],
    ifNoneMatch: h['if-none-match'],
  };
}
