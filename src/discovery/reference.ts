// The API reference in a browser: Swagger UI (npm `swagger-ui-dist`, served by the gateway, no CDN) over our own /doc.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Request, type Response } from 'express';
import { OPS_PREFIX } from '../cache/ops.ts';
import { NAMESPACE } from '../contract/discovery.ts';

export const REFERENCE_PATH = `${OPS_PREFIX}/reference`;

/** The only files of the package the page loads; nothing else of it (its petstore demo page) is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const assetDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Where the reference of the API root `restRoot` (`…/wp-json` or `…/{lang}/wp-json`) lives. */
export function referenceUrl(restRoot: string, secondaryLang?: string): string {
  const suffix = secondaryLang ? `/${secondaryLang}/wp-json` : '/wp-json';
  const base = restRoot.endsWith(suffix) ? restRoot.slice(0, -suffix.length) : restRoot;
  return `${base}${REFERENCE_PATH}/`;
}

/**
 * The page runs only its own files: scripts from 'self' (init.js is a file for this), no inline script, no eval.
 * Swagger UI sets inline `style` attributes and draws icons as data: SVG, hence those two allowances. "Try it out"
 * calls the `servers` URL of /doc: this origin, or PUBLIC_URL's. No site may frame it (clickjacking a signed-in
 * "Execute").
 */
export function referencePolicy(publicUrl?: string): string {
  const connect = ["'self'"];
  if (publicUrl) connect.push(new URL(publicUrl).origin);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of the gateway's own pages (this one, the calendar's): the policy above, no framing, no sniffing. */
export function pageHeaders(publicUrl?: string): express.RequestHandler {
  const policy = referencePolicy(publicUrl);
  return (_req: Request, res: Response, next) => {
    res.set({
      'Content-Security-Policy': policy,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    next();
  };
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page and its assets. Documents are fetched by relative URL (`../../../wp-json/…`), so the page works under any
 * public host or path prefix, and "Try it out" calls the `servers` URL the document itself names.
 */
export function referenceRouter(opts: {
  title: string;
  secondaryLanguage?: string;
  publicUrl?: string;
}): express.Router {
  const router = express.Router({ strict: true });
  router.use(pageHeaders(opts.publicUrl));
  const docs = [{ name: `${NAMESPACE}`, url: `../../../wp-json/${NAMESPACE}/doc` }];
  if (opts.secondaryLanguage) {
    docs.push({
      name: `${NAMESPACE} (${opts.secondaryLanguage})`,
      url: `../../../${opts.secondaryLanguage}/wp-json/${NAMESPACE}/doc`,
    });
  }
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.title)}</title>
<link rel="icon" type="image/png" href="favicon-32x32.png">
<link rel="stylesheet" href="swagger-ui.css">
<style>body{margin:0}</style>
</head>
<body>
<div id="reference"></div>
<script src="swagger-ui-bundle.js"></script>
<script src="swagger-ui-standalone-preset.js"></script>
<script src="init.js"></script>
</body>
</html>
`;
  // A file of its own rather than an inline script, so a Content-Security-Policy of 'self' allows the page.
  const init = `window.ui = SwaggerUIBundle({
  urls: ${JSON.stringify(docs)},
  dom_id: '#reference',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  tryItOutEnabled: true,
  displayRequestDuration: true,
});
`;
  const send = (res: Response, type: string, body: string) =>
    res.status(200).type(type).set('Cache-Control', 'public, max-age=300').send(body);
  router.get('/', (req: Request, res: Response) => {
    if (!req.originalUrl.split('?')[0]!.endsWith('/')) {
      res.redirect(301, `${req.baseUrl}/`);
      return;
    }
    send(res, 'text/html; charset=utf-8', page);
  });
  router.get('/init.js', (_req, res) => send(res, 'text/javascript; charset=utf-8', init));
  router.get('/:file', (req, res, next) => {
    const file = String(req.params.file);
    const type = ASSETS[file];
    if (!type) return next();
    res.type(type).set('Cache-Control', 'public, max-age=86400');
    res.sendFile(join(assetDir, file));
  });
  return router;
}
