// Everything outside the calendar namespace goes to the upstream WordPress as it is: streamed, status and headers kept.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { publicBase } from './http/respond.ts';
import type { Logger } from './log.ts';
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
}

const isResponse = (r: ServerResponse | Socket): r is ServerResponse =>
  typeof (r as ServerResponse).writeHead === 'function';

/**
 * A reverse proxy to the site. The request body must still be unread (no body parser may run before it); the Host
 * header is rewritten to the upstream's so WordPress answers as itself. An unreachable or slow upstream answers a
 * WordPress-style 503/504 (as src/wp/errors.ts) instead of http-proxy's plain-text page.
 */
export function siteProxy(opts: ProxyOptions): RequestHandler {
  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: opts.siteUrl,
    changeOrigin: true,
    proxyTimeout: opts.timeoutMs,
    on: {
      proxyRes: (proxyRes, req) => {
        // TEC's HTTP discovery: front-end pages (not REST answers) name the API root and the site origin.
        const type = String(proxyRes.headers['content-type'] ?? '');
        if (!type.startsWith('text/html') || (req.url ?? '').startsWith('/wp-json')) return;
        // Mounted in express, so the request is express's (with `protocol` and `get`).
        const base = publicBase(req as Request, opts.publicUrl).replace(/\/+$/, '');
        proxyRes.headers['x-tec-api-version'] = 'v1';
        proxyRes.headers['x-tec-api-root'] = `${base}/wp-json/${opts.namespace}/`;
        proxyRes.headers['x-tec-api-origin'] = base;
      },
      error: (err, req, res) => {
        const code = (err as NodeJS.ErrnoException).code;
        const timedOut = code === 'ECONNRESET' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT';
        opts.log.warn({ err, url: req.url }, 'proxy to the upstream WordPress failed');
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
    },
  }) as unknown as RequestHandler;
}
