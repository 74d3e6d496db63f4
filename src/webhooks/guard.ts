// Where a webhook may connect: public unicast addresses only, checked when each connection is made (DNS rebinding
// cannot pass a check made when the URL was saved), with IPv4-mapped IPv6 read as the IPv4 it carries.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';

/** Resolves a host name to its addresses (tests pass their own to play a rebinding DNS). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

/**
 * Why an address may not be reached, or null when it may. ipaddr.js names the ranges (RFC 6890's registry): only
 * `unicast` passes; loopback, private, link-local, CGNAT, reserved, multicast, unspecified, broadcast, unique-local,
 * and the IPv6 forms that carry an IPv4 address (6to4, Teredo, NAT64) do not.
 */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // `process` turns ::ffff:10.0.0.1 into 10.0.0.1, so a mapped address is judged as the IPv4 it reaches.
  const range = ipaddr.process(address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')).range();
  return range === 'unicast' ? null : `${address} is in a non-public range (${range})`;
}

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/** All of a host's addresses, refused if any is not public (a mixed answer is how rebinding starts). */
export async function checkedAddresses(hostname: string, resolve: Resolver): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const found = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  if (found.length === 0) throw new TargetRefused(`${host} has no address`);
  for (const a of found) {
    const why = refusedAddress(a.address);
    if (why) throw new TargetRefused(`${host} resolves to ${why}`);
  }
  return found;
}

/** What the URL of a subscription must be: https (http too with `allowPrivate`), no credentials in it. */
export function urlProblem(text: string, allowPrivate: boolean): string | null {
  if (!URL.canParse(text)) return 'url must be an absolute URL';
  const u = new URL(text);
  if (u.protocol !== 'https:' && !(allowPrivate && u.protocol === 'http:'))
    return allowPrivate
      ? 'url must be http or https'
      : 'url must be https (WEBHOOK_ALLOW_PRIVATE_TARGETS allows http)';
  if (u.username || u.password) return 'url must not carry a user name or password';
  return null;
}

/**
 * The dispatcher deliveries go through. Unless private targets are allowed, its connector resolves the host itself
 * and refuses a non-public address before any socket opens, on every connection (undici reuses a checked one).
 */
export function guardedAgent(opts: { allowPrivate: boolean; resolve?: Resolver; timeoutMs: number }): Agent {
  const resolve = opts.resolve ?? systemResolver;
  const base = buildConnector({ timeout: opts.timeoutMs });
  if (opts.allowPrivate) return new Agent({ connect: base, connections: 16 });
  return new Agent({
    connections: 16,
    connect: (options, callback) => {
      checkedAddresses(options.hostname, resolve).then(
        // Connect to the address just checked, naming the host for TLS (SNI and the certificate's name).
        (found) =>
          base(
            {
              ...options,
              hostname: found[0]!.address,
              servername: options.servername ?? (isIP(options.hostname) ? undefined : options.hostname),
            } as typeof options,
            callback,
          ),
        (err: Error) => callback(err, null),
      );
    },
  });
}
