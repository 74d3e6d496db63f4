// Builds the CDN side of the cache from the configuration: the purger, and what anonymous answers tell a CDN.
import type { CdnPolicy } from '../cache/entry.ts';
import type { Config } from '../config.ts';
import type { Logger } from '../log.ts';
import { CLOUDFLARE_API, cloudflare, FASTLY_API, fastly, type PurgeBackend, varnish } from './backends.ts';
import type { TagHeader } from './headers.ts';
import { CdnPurger } from './purger.ts';

/** The tag header each purger's cache reads. */
const HEADER_OF: Record<NonNullable<Config['cdnPurge']>, TagHeader> = {
  varnish: 'xkey',
  fastly: 'surrogate-key',
  cloudflare: 'cache-tag',
};

/**
 * The tag headers and `s-maxage`. By default an answer carries the one header its purger's cache reads, and none
 * without a purger: a list page's tags run to hundreds of bytes, sent on every answer for nobody otherwise.
 * `s-maxage` comes only with a purger: without one a long shared lifetime would serve stale answers after writes.
 */
export function cdnPolicyOf(config: Config): CdnPolicy | undefined {
  const p = config.cdnPurge;
  const tagHeaders = config.cdnTagHeaders ?? (p ? [HEADER_OF[p]] : []);
  if (!p && tagHeaders.length === 0) return undefined;
  return { tagHeaders, sMaxAgeSeconds: p ? config.cdnMaxAgeSeconds : undefined };
}

/** The purge API `loadConfig` checked (src/config.ts `cdnProblems`). */
export function backendOf(config: Config): PurgeBackend | undefined {
  const urls = config.cdnPurgeUrl ?? [];
  switch (config.cdnPurge) {
    case 'varnish':
      return varnish(urls, config.cdnPurgeToken);
    case 'fastly':
      return fastly(urls[0] ?? FASTLY_API, config.cdnServiceId!, config.cdnPurgeToken!);
    case 'cloudflare':
      return cloudflare(urls[0] ?? CLOUDFLARE_API, config.cdnZoneId!, config.cdnPurgeToken!);
    default:
      return undefined;
  }
}

export function createPurger(config: Config, log: Logger): CdnPurger | undefined {
  const backend = backendOf(config);
  return backend && new CdnPurger(backend, { log, timeoutMs: config.upstreamTimeoutMs });
}
