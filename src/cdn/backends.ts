// The purge APIs of Varnish (vmod xkey, deploy/varnish.vcl), Fastly and Cloudflare: one call each, batched to
// their limits.

export type CdnName = 'varnish' | 'fastly' | 'cloudflare';

/** A purge call that failed; `retry` says whether trying again may help (5xx, 429, network), `afterMs` when. */
export class PurgeError extends Error {
  readonly retry: boolean;
  readonly afterMs?: number;
  constructor(message: string, retry: boolean, afterMs?: number) {
    super(message);
    this.retry = retry;
    this.afterMs = afterMs;
  }
}

export interface PurgeBackend {
  name: CdnName;
  /** Tags one call may carry (each API's limit). */
  batchSize: number;
  /** Purges these tags (`null`: everything). Throws a PurgeError. */
  send(tags: string[] | null, signal: AbortSignal): Promise<void>;
}

/** `Retry-After` in ms (seconds or an HTTP date), capped at a minute. */
function retryAfterMs(h: string | null, now = Date.now()): number | undefined {
  if (!h) return undefined;
  const s = Number(h);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(h) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 60_000) : undefined;
}

/** One HTTP call; a 2xx is success, a 5xx or 429 (or no answer at all) may be retried, anything else may not. */
async function call(url: string, init: RequestInit, signal: AbortSignal): Promise<void> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal });
  } catch (err) {
    throw new PurgeError(`${new URL(url).host} did not answer: ${(err as Error).message}`, true);
  }
  await res.arrayBuffer().catch(() => undefined);
  if (res.ok) return;
  const retry = res.status >= 500 || res.status === 429;
  throw new PurgeError(
    `${new URL(url).host} answered ${res.status}`,
    retry,
    retryAfterMs(res.headers.get('retry-after')),
  );
}

/**
 * Varnish with deploy/varnish.vcl: `PURGE` with the tags in `xkey-purge` (space-separated), `BAN` for everything,
 * sent to every Varnish listed. The token, when set, goes in `X-Purge-Token` for a VCL that checks one.
 */
export function varnish(urls: string[], token?: string): PurgeBackend {
  const headers = (extra: Record<string, string>) => (token ? { ...extra, 'x-purge-token': token } : extra);
  return {
    name: 'varnish',
    // Varnish's `http_req_hdr_len` is 8 KB by default: 100 tags of this gateway stay well under it.
    batchSize: 100,
    async send(tags, signal) {
      await Promise.all(
        urls.map((u) =>
          tags === null
            ? call(u, { method: 'BAN', headers: headers({}) }, signal)
            : call(u, { method: 'PURGE', headers: headers({ 'xkey-purge': tags.join(' ') }) }, signal),
        ),
      );
    },
  };
}

/** Fastly: `POST /service/{id}/purge` with `{surrogate_keys}` (256 keys a call), `POST …/purge_all`. */
export function fastly(base: string, serviceId: string, token: string): PurgeBackend {
  const root = `${base.replace(/\/+$/, '')}/service/${encodeURIComponent(serviceId)}`;
  const headers = { 'fastly-key': token, accept: 'application/json', 'content-type': 'application/json' };
  return {
    name: 'fastly',
    batchSize: 256,
    send: (tags, signal) =>
      tags === null
        ? call(`${root}/purge_all`, { method: 'POST', headers }, signal)
        : call(
            `${root}/purge`,
            { method: 'POST', headers, body: JSON.stringify({ surrogate_keys: tags }) },
            signal,
          ),
  };
}

/**
 * Cloudflare: `POST /zones/{zone}/purge_cache` with `{tags}` or `{purge_everything: true}`, Bearer token. Its docs
 * allow 100 operations (tags) per request on every plan (30 before 2025).
 */
export function cloudflare(base: string, zoneId: string, token: string): PurgeBackend {
  const url = `${base.replace(/\/+$/, '')}/zones/${encodeURIComponent(zoneId)}/purge_cache`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return {
    name: 'cloudflare',
    batchSize: 100,
    send: (tags, signal) =>
      call(
        url,
        {
          method: 'POST',
          headers,
          body: JSON.stringify(tags === null ? { purge_everything: true } : { tags }),
        },
        signal,
      ),
  };
}

export const FASTLY_API = 'https://api.fastly.com';
export const CLOUDFLARE_API = 'https://api.cloudflare.com/client/v4';
