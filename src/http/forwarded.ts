// What `X-Forwarded-*` may decide: only a configured proxy's headers count, and a scheme is only ever http or https.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Request } from 'express';

/** express's `trust proxy` setting for TRUST_PROXY: the listed proxies, or none (every forwarded header ignored). */
export const trustProxySetting = (proxies: readonly string[] | undefined): string[] | false =>
  proxies && proxies.length > 0 ? [...proxies] : false;

/**
 * The scheme clients used: `req.protocol` (X-Forwarded-Proto from a trusted proxy, else the connection's), when it
 * is http or https. Anything else (`javascript`, `https://evil.example/#`) would be written into every link, so it
 * counts for nothing and the connection's own scheme is used.
 */
export function schemeOf(req: Request): 'http' | 'https' {
  const proto = req.protocol.toLowerCase();
  if (proto === 'http' || proto === 'https') return proto;
  return (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
}

/** The forwarding headers a client might send to make WordPress believe another origin or address. */
export const FORWARDED_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-forwarded-ssl',
  'x-real-ip',
] as const;

/** Whether the request came straight from a proxy the app trusts (express compiles `trust proxy` to this test). */
export function fromTrustedProxy(req: IncomingMessage): boolean {
  const app = (req as Partial<Request>).app;
  const trust = app?.get('trust proxy fn') as ((addr: string, i: number) => boolean) | undefined;
  return !!trust && trust(req.socket.remoteAddress ?? '', 0);
}

/** Drops the forwarding headers of a request that did not come from a trusted proxy (before it goes upstream). */
export function dropUntrustedForwarding(
  req: IncomingMessage,
  remove: (name: string) => void,
  headers: IncomingHttpHeaders = req.headers,
): void {
  if (fromTrustedProxy(req)) return;
  for (const h of FORWARDED_HEADERS) if (headers[h] !== undefined) remove(h);
}
