// Fetches an image named by URL for sideloading: TEC's HEAD check, then the bytes, never from private addresses.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { imageSize } from 'image-size';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

interface ImageType {
  readonly exts: readonly string[];
  readonly detected: readonly string[];
}

/**
 * Image types TEC accepts for `image` URLs: the file extensions WordPress expects for each, and what image-size finds
 * in the bytes of each.
 */
export const IMAGE_TYPES: Readonly<Record<string, ImageType>> = {
  'image/jpeg': { exts: ['jpg', 'jpeg', 'jpe'], detected: ['jpg'] },
  'image/png': { exts: ['png'], detected: ['png'] },
  'image/gif': { exts: ['gif'], detected: ['gif'] },
  'image/webp': { exts: ['webp'], detected: ['webp'] },
  'image/bmp': { exts: ['bmp'], detected: ['bmp'] },
  'image/tiff': { exts: ['tif', 'tiff'], detected: ['tiff'] },
  'image/x-icon': { exts: ['ico'], detected: ['ico', 'cur'] },
  'image/heic': { exts: ['heic'], detected: ['heif'] },
  'image/avif': { exts: ['avif'], detected: ['heif'] },
};

export interface RemoteImage {
  bytes: Buffer;
  type: string;
  /** A file name WordPress accepts for the type: the URL's own name when its extension fits. */
  filename: string;
}

export interface RemoteImageOptions {
  /** Private, loopback and link-local addresses are refused unless this is set (SSRF guard). */
  allowPrivateHosts: boolean;
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Why a URL is not a usable image: the message names the cause, so the caller can fix it, in words that say nothing
 * about the gateway's network (its resolver's or a connection's error is `detail`, for the log only).
 */
export class RemoteImageError extends Error {
  readonly detail?: string;
  constructor(message: string, detail?: string) {
    super(message);
    this.detail = detail;
  }
}

/** Whether `bytes` are an image of the media type `type` (read by image-size, not by the name or the header). Pure. */
export function isImageOf(bytes: Uint8Array, type: string): boolean {
  try {
    return IMAGE_TYPES[type]?.detected.includes(imageSize(bytes).type ?? '') ?? false;
  } catch {
    return false;
  }
}

/** `image/png; charset=…` → `image/png`. Pure. */
export const mediaType = (header: string | undefined): string =>
  (header ?? '').split(';')[0].trim().toLowerCase();

/** The URL's last path segment, decoded; empty when it has none or a malformed escape. Pure. */
export function lastSegment(url: URL): string {
  try {
    return decodeURIComponent(url.pathname.split('/').pop() ?? '');
  } catch {
    return '';
  }
}

const safeSegment = (url: URL): string =>
  lastSegment(url)
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[.-]+/, '');

/** The name an upload from `url` gets, without its extension: also the attachment's title in WordPress. Pure. */
export const stemOf = (url: URL): string => safeSegment(url).replace(/\.[^.]*$/, '') || 'image';

/** The URL's last path segment, made safe, with an extension that fits `type`. Pure. */
export function filenameFor(url: URL, type: string): string {
  const exts = IMAGE_TYPES[type]?.exts ?? [];
  const base = safeSegment(url);
  const ext = base.includes('.') ? base.split('.').pop()?.toLowerCase() : undefined;
  if (ext && exts.includes(ext)) return base;
  return `${stemOf(url)}.${exts[0] ?? 'img'}`;
}

export class RemoteImages {
  private readonly options: RemoteImageOptions;
  private readonly agents: { http: RequestFilteringHttpAgent; https: RequestFilteringHttpsAgent };

  constructor(options: RemoteImageOptions) {
    this.options = options;
    const filter = { allowPrivateIPAddress: options.allowPrivateHosts, keepAlive: false };
    this.agents = {
      http: new RequestFilteringHttpAgent(filter),
      https: new RequestFilteringHttpsAgent(filter),
    };
  }

  /** Parses an `image` argument that is not an id; null when it is no http(s) URL at all. Pure. */
  static parse(value: string): URL | null {
    if (!/^https?:\/\//i.test(value)) return null;
    try {
      return new URL(value);
    } catch {
      return null;
    }
  }

  /**
   * TEC's rule: the URL answers HEAD with 200 and an image type (redirects are not followed, as WordPress's
   * `wp_remote_head`); then the body is read, up to the size limit.
   */
  async fetch(url: URL, signal?: AbortSignal): Promise<RemoteImage> {
    const head = await this.send('HEAD', url, signal);
    head.resume();
    const type = mediaType(head.headers['content-type']);
    if (head.statusCode !== 200)
      throw new RemoteImageError(`The image URL answered HTTP ${head.statusCode}, not 200.`);
    if (!IMAGE_TYPES[type])
      throw new RemoteImageError(`The image URL serves ${type || 'no content type'}, not an image.`);
    const res = await this.send('GET', url, signal);
    if (res.statusCode !== 200) {
      res.resume();
      throw new RemoteImageError(`The image URL answered HTTP ${res.statusCode}, not 200.`);
    }
    const bytes = await this.read(res);
    // WordPress refuses a file whose bytes are not the type it claims with a 500, as it answers a folder it could
    // not make: checked here, so that WordPress's 500 on an upload is always its own failure (502).
    if (!isImageOf(bytes, type))
      throw new RemoteImageError(`The image URL says ${type}, but what it serves is not such an image.`);
    return { bytes, type, filename: filenameFor(url, type) };
  }

  private send(method: 'HEAD' | 'GET', url: URL, signal?: AbortSignal): Promise<IncomingMessage> {
    const { timeoutMs } = this.options;
    const timeout = AbortSignal.timeout(timeoutMs);
    const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const https = url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(
        url,
        { method, agent: https ? this.agents.https : this.agents.http, signal: abort },
        resolve,
      );
      req.once('error', (err) => {
        // What the resolver or the connection said (`getaddrinfo ENOTFOUND intranet.example`, a private address a
        // name resolves to) would tell a caller which internal names exist: only an address they wrote themselves
        // is named as private.
        const literal = isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0;
        const why = timeout.aborted
          ? `: no answer within ${timeoutMs} ms`
          : literal && /not allowed/i.test(err.message)
            ? ': its address is private or reserved'
            : '';
        reject(new RemoteImageError(`The image URL could not be fetched${why}.`, err.message));
      });
      req.end();
    });
  }

  private async read(res: IncomingMessage): Promise<Buffer> {
    const { maxBytes } = this.options;
    if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
      res.destroy();
      throw new RemoteImageError(`The image is larger than the ${maxBytes} bytes allowed.`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          res.destroy();
          throw new RemoteImageError(`The image is larger than the ${maxBytes} bytes allowed.`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof RemoteImageError) throw err;
      throw new RemoteImageError('The image URL could not be read.', (err as Error).message);
    }
    if (size === 0) throw new RemoteImageError('The image URL served an empty body.');
    return Buffer.concat(chunks);
  }
}
