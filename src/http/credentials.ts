// Who a request is: the one decision between an anonymous caller (whose reads may be shared) and a signed-in one.
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Credentials } from '../context.ts';
import { queryOrEmpty } from './query.ts';

/** The Basic scheme as WordPress reads it (`wp_populate_basic_auth_from_authorization_header`): any case. */
const BASIC = /^basic\s+/i;

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/**
 * Whether a request carries anything WordPress could take for credentials (Authorization, Cookie, X-WP-Nonce).
 * Every request `credentialsOf` finds credentials in carries one; the cache's fast path, which runs before express,
 * sends all such requests on to it.
 */
export const mayCarryCredentials = (h: IncomingHttpHeaders): boolean =>
  h.authorization !== undefined || h.cookie !== undefined || h['x-wp-nonce'] !== undefined;

/** The caller's credentials as WordPress reads them: Basic (application passwords), or cookie with a nonce. */
export function credentialsOf(req: IncomingMessage): Credentials | undefined {
  const h = req.headers;
  if (!mayCarryCredentials(h)) return undefined;
  const auth = first(h.authorization);
  if (auth && BASIC.test(auth)) {
    // One spelling per credential: `basic` or `Basic`, extra blanks, or base64 padded otherwise all reach WordPress as
    // the same user:password, so they are one caller here (audience, callers cache, idempotency keys), and the
    // header goes upstream in this one spelling, so WordPress checks exactly what the audience was made of.
    const bytes = Buffer.from(auth.replace(BASIC, ''), 'base64');
    const user = bytes.toString('utf8').split(':')[0] ?? '';
    return { kind: 'basic', header: `Basic ${bytes.toString('base64')}`, user };
  }
  const wpnonce = queryOrEmpty(req)._wpnonce;
  const nonce = first(h['x-wp-nonce']) ?? (typeof wpnonce === 'string' ? wpnonce : undefined);
  const cookie = first(h.cookie);
  if (nonce && cookie && /wordpress_logged_in_/.test(cookie)) return { kind: 'cookie', cookie, nonce };
  return undefined;
}

/** The audience a cached or idempotent answer belongs to: `anonymous`, or a hash of the caller's credentials. */
export const audienceOf = (c: Credentials | undefined): string =>
  c
    ? `user:${createHash('sha256')
        .update(c.kind === 'basic' ? c.header : `${c.cookie}\n${c.nonce}`)
        .digest('hex')
        .slice(0, 24)}`
    : 'anonymous';
