// Everything outside the calendar namespace goes to the upstream WordPress as it is: streamed, status and headers kept.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { createProxyMiddleware, type Options } from 'http-proxy-middleware';
import type { Change } from './cache/notify.ts';
import { changesOfBatch } from './cache/proxied-batch.ts';
import {
  changeOfWrite,
  effectiveMethod,
  isBatch,
  isMappedWrite,
  isSettingsWrite,
  userDeleteOf,
} from './cache/proxied-writes.ts';
import { tooLarge } from './http/errors.ts';
import { dropUntrustedForwarding } from './http/forwarded.ts';
import { publicBase } from './http/respond.ts';
import type { Logger } from './log.ts';
import type { Mapping } from './mapping/schema.ts';
import { redactUrl } from './observe/redact.ts';
import { upstreamUnavailable } from './wp/errors.ts';

export interface ProxyOptions {
  /** The upstream site URL: the REST root without `/wp-json` (a sub-directory install keeps its path). */
  siteUrl: string;
  /** The gateway's public base URL (PUBLIC_URL); by default the request's own scheme and host. */
  publicUrl?: string;
  /** The calendar namespace, announced on front-end pages as TEC does. */
  namespace: string;
  timeoutMs: number;
  log: Logger;
  /**
   * wp/v2 writes to the records the mapping reads: what they changed is applied (index, caches) before the caller
   * hears back, as a change notification would be, so the calendar API shows the write at once. A batch
   * (`/wp-json/batch/v1`) is applied as its sub-requests' writes sent one by one would be.
   */
  writes?: {
    mapping: Mapping;
    apply: (changes: Change[]) => Promise<void>;
    /** After a successful write of `/wp/v2/settings`: the site's name and time zone may have changed. */
    site?: () => Promise<void>;
    /** After a user was deleted (`id` unless it was `users/me`): their posts changed hands or went. */
    userDeleted?: (id: number | undefined) => Promise<void>;
  };
  /**
   * Checks the credentials a REST request carries before it goes on (src/auth/throttle.ts counts the failures):
   * rejects with the refusal to answer instead (401, 429), resolves when WordPress may be asked.
   */
  signIn?: (req: IncomingMessage) => Promise<void>;
}

const isResponse = (r: ServerResponse | Socket): r is ServerResponse =>
  typeof (r as ServerResponse).writeHead === 'function';

/** Below a REST root (`/wp-json`, `/{lang}/wp-json`). */
const REST_PATH = /^\/(?:[a-z]{2}\/)?wp-json(?:[/?]|$)/i;
const isJson = (type: string) => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type);

/** The CORS headers src/http/cors.ts (and WordPress) put on REST answers: never on a page that is not one. */
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
];

/** Hop-by-hop headers of the upstream's answer, not passed on when the gateway writes the answer itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade']);

/** Largest wp/v2 write answer read whole (a record is a few KB; beyond this it streams and is not applied). */
const MAX_WRITE_ANSWER = 4 << 20;

/** Largest batch body read (25 writes of a few KB by default): beyond it 413, as the calendar API's bodies. */
const MAX_BATCH_BODY = 4 << 20;

/** The bodies of batches in flight, read before they are sent on: what their sub-requests were. */
const batchBodies = new WeakMap<IncomingMessage, Buffer>();

/** Reads a request's body whole, or resolves undefined past `max` bytes (the rest is not read). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > max) {
        req.off('data', onData);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A reverse proxy to the site. The request body must still be unread (no body parser may run before it); the Host
 * header is rewritten to the upstream's so WordPress answers as itself. An unreachable or slow upstream answers a
 * WordPress-style 503/504 (as src/wp/errors.ts) instead of http-proxy's plain-text page.
 */
export function siteProxy(opts: ProxyOptions): RequestHandler {
  const on: Options<IncomingMessage, ServerResponse>['on'] = {
    // A client's own X-Forwarded-* (only a trusted proxy's count) must not make WordPress believe another origin.
    proxyReq: (proxyReq, req) => dropUntrustedForwarding(req, (h) => proxyReq.removeHeader(h)),
    proxyRes: (proxyRes, req, res) => {
      const type = String(proxyRes.headers['content-type'] ?? '');
      const url = req.url ?? '';
      if (REST_PATH.test(url)) {
        // CORS with credentials belongs to REST answers only: an HTML page reached under /wp-json is not one.
        if (type && !isJson(type)) {
          for (const h of CORS_HEADERS) {
            delete proxyRes.headers[h];
            res.removeHeader(h);
          }
        }
        return;
      }
      // TEC's HTTP discovery: front-end pages (not REST answers) name the API root and the site origin.
      if (!type.startsWith('text/html')) return;
      // Mounted in express, so the request is express's (with `protocol` and `get`).
      const base = publicBase(req as Request, opts.publicUrl).replace(/\/+$/, '');
      proxyRes.headers['x-tec-api-version'] = 'v1';
      proxyRes.headers['x-tec-api-root'] = `${base}/wp-json/${opts.namespace}/`;
      proxyRes.headers['x-tec-api-origin'] = base;
    },
    error: (err, req, res) => {
      const code = (err as NodeJS.ErrnoException).code;
      const timedOut = code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT';
      // The query may carry a password or a nonce (wp-login.php?…, ?_wpnonce=…): logged without their values.
      const url = redactUrl((req as Partial<Request>).originalUrl ?? req.url ?? '');
      opts.log.warn({ err, url }, 'proxy to the upstream WordPress failed');
      if (!isResponse(res)) {
        res.destroy();
        return;
      }
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const e = upstreamUnavailable(err, timedOut);
      res.writeHead(e.status, { 'Content-Type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(e.toJSON()));
    },
  };
  const common = { target: opts.siteUrl, changeOrigin: true, proxyTimeout: opts.timeoutMs };
  const streamed = createProxyMiddleware<IncomingMessage, ServerResponse>({ ...common, on });
  const plain = streamed as unknown as RequestHandler;
  return signingIn(opts.signIn, opts.writes ? written(opts.writes, opts.log, on, common, plain) : plain);
}

/**
 * Runs `signIn` first for a REST request with credentials (a refusal goes to express's error handler, which answers
 * it as WordPress would); a page, an anonymous request or a check that could not be made goes on as it is.
 */
function signingIn(signIn: ProxyOptions['signIn'], next: RequestHandler): RequestHandler {
  if (!signIn) return next;
  return (req, res, after) => {
    const url = req.url ?? '';
    if (!REST_PATH.test(url) && !/[?&]rest_route=/.test(url)) return next(req, res, after);
    signIn(req).then(
      () => next(req, res, after),
      (err: unknown) => {
        const status = (err as { status?: number })?.status;
        if (status === 401 || status === 403 || status === 429) after(err);
        else next(req, res, after);
      },
    );
  };
}

/** With `writes`: the middleware that reads wp/v2 writes' answers to apply them, and streams the rest. */
function written(
  writes: NonNullable<ProxyOptions['writes']>,
  log: Logger,
  on: NonNullable<Options<IncomingMessage, ServerResponse>['on']>,
  common: Options<IncomingMessage, ServerResponse>,
  streamed: RequestHandler,
): RequestHandler {
  const written = createProxyMiddleware<IncomingMessage, ServerResponse>({
    ...common,
    selfHandleResponse: true,
    on: {
      ...on,
      proxyReq: (proxyReq, req, res) => {
        on.proxyReq?.(proxyReq, req, res, {});
        // The answer is read here, so it comes uncompressed.
        proxyReq.removeHeader('accept-encoding');
        // A batch's body was read already: sent here, and the proxy's pipe of the ended request ends it.
        const body = batchBodies.get(req);
        if (body) {
          // Whole now, whatever framing it came in.
          proxyReq.removeHeader('transfer-encoding');
          proxyReq.setHeader('content-length', body.length);
          proxyReq.write(body);
        }
      },
      proxyRes: (proxyRes, req, res) => relayWrite(proxyRes, req, res, writes, log),
    },
  });
  const methodOf = (req: IncomingMessage) =>
    effectiveMethod(req.method ?? '', req.url ?? '', req.headers['x-http-method-override']);
  return ((req, res, next) => {
    const method = methodOf(req);
    if (!isBatch(method, req.url ?? '')) {
      (isMappedWrite(writes.mapping, method, req.url) ? written : streamed)(req, res, next);
      return;
    }
    readBody(req, MAX_BATCH_BODY).then(
      (body) => {
        if (!body) return next(tooLarge());
        batchBodies.set(req, body);
        written(req, res, next);
      },
      (err: unknown) => next(err),
    );
  }) as RequestHandler;
}

/** What a write read whole changed: one record, or each write of a batch. */
function changesOf(mapping: Mapping, req: IncomingMessage, status: number, body: unknown): Change[] {
  const url = req.url ?? '';
  const method = effectiveMethod(req.method ?? '', url, req.headers['x-http-method-override']);
  if (isBatch(method, url)) {
    let asked: unknown;
    try {
      asked = JSON.parse(batchBodies.get(req)?.toString('utf8') ?? '');
    } catch {
      // Not JSON: WordPress refused it whole, and nothing ran.
    }
    return changesOfBatch(mapping, asked, status, body);
  }
  const change = changeOfWrite(mapping, method, url, status, body);
  return change ? [change] : [];
}

/** Reads a write's answer, applies what it changed, then passes the answer on unchanged. */
function relayWrite(
  proxyRes: IncomingMessage,
  req: IncomingMessage,
  res: ServerResponse,
  writes: NonNullable<ProxyOptions['writes']>,
  log: Logger,
): void {
  const status = proxyRes.statusCode ?? 502;
  const headers = Object.fromEntries(Object.entries(proxyRes.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
  const chunks: Buffer[] = [];
  let size = 0;
  let streaming = false;
  proxyRes.on('data', (chunk: Buffer) => {
    if (streaming) return;
    size += chunk.length;
    chunks.push(chunk);
    if (size > MAX_WRITE_ANSWER) {
      // Not a record: pass it on as it comes, and apply nothing.
      streaming = true;
      res.writeHead(status, proxyRes.statusMessage, headers);
      for (const c of chunks) res.write(c);
      proxyRes.pipe(res);
    }
  });
  proxyRes.on('end', () => {
    if (streaming) return;
    const bytes = Buffer.concat(chunks);
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch {
      body = undefined;
    }
    const changes = changesOf(writes.mapping, req, status, body);
    const url = req.url ?? '';
    const method = effectiveMethod(req.method ?? '', url, req.headers['x-http-method-override']);
    const ok = status >= 200 && status < 300;
    const user = ok ? userDeleteOf(method, url) : undefined;
    const applied = Promise.all([
      changes.length ? writes.apply(changes) : undefined,
      ok && isSettingsWrite(method, url) ? writes.site?.() : undefined,
      user ? writes.userDeleted?.(user.id) : undefined,
    ]).catch((err: unknown) => {
      log.warn({ err: (err as Error)?.message, changes }, 'a proxied write could not be applied');
    });
    void applied.then(() => {
      res.writeHead(status, proxyRes.statusMessage, headers);
      res.end(bytes);
    });
  });
  proxyRes.on('error', () => res.destroy());
}
