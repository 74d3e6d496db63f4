// The calendar in a browser: a page with <calendar-gateway-view> on this gateway's API, at /calendar-gateway/v1/calendar/
// (and /…/calendar/{lang}/ for the secondary language) in every mode, and at `/` in demo mode. The element's script
// is the bundle `npm install` builds (src/elements/build.ts), served from here: no CDN, the reference page's headers.
import { existsSync } from 'node:fs';
import express, { type Request, type Response } from 'express';
import { OPS_PREFIX } from '../cache/ops.ts';
import { NAMESPACE } from '../contract/discovery.ts';
import { escapeHtml, pageHeaders, REFERENCE_PATH } from '../discovery/reference.ts';
import { publicBase } from '../http/respond.ts';
import { BUNDLE } from './build.ts';

export const CALENDAR_PATH = `${OPS_PREFIX}/calendar`;
const SCRIPT = 'calendar-gateway-view.js';
const STYLE = 'page.css';

export interface CalendarPageOptions {
  publicUrl?: string;
  /** The default language (the `/wp-json` root's). */
  language: string;
  /** The secondary language, whose page is /…/calendar/{lang}/ on the `/{lang}/wp-json` root. */
  secondaryLanguage?: string;
  /** The site's name and IANA zone, read at each request (a settings change updates them). */
  site: { name: string; timezone: string };
  /** Link wp-admin (a WordPress upstream, not the demo's in-memory one). */
  wpAdmin: boolean;
}

/** The bundle is built: without it the page says how to build it. */
export const bundleBuilt = (): boolean => existsSync(BUNDLE);

const CSS = `:root{color-scheme:light dark;font-family:system-ui,sans-serif}
body{margin:0;background:#fff;color:#1a1a1a}
@media (prefers-color-scheme:dark){body{background:#111827;color:#f3f4f6}a{color:#93c5fd}}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:1rem 2rem;padding:1rem 1.5rem 0}
header h1{margin:0;font-size:1.4rem}
nav{display:flex;flex-wrap:wrap;gap:1rem}
main{padding:1rem 1.5rem 2rem;max-width:80rem}
`;

interface PageArgs {
  lang: string;
  /** The REST root the element reads, absolute (its feed links must be). */
  src: string;
  /** From the page to this router's files. */
  assets: string;
  /** From the page to the site's root. */
  root: string;
  other?: { lang: string; href: string; label: string };
}

function page(opts: CalendarPageOptions, a: PageArgs): string {
  const es = a.lang.startsWith('es');
  const t = es
    ? {
        reference: 'Referencia de la API',
        feed: 'Feed iCalendar',
        fallback: 'El calendario necesita su script',
      }
    : { reference: 'API reference', feed: 'iCalendar feed', fallback: 'The calendar needs its script' };
  const links = [
    `<a href="${a.root}${REFERENCE_PATH.slice(1)}/">${t.reference}</a>`,
    `<a href="${escapeHtml(a.src)}/${NAMESPACE}/events.ics">${t.feed}</a>`,
    ...(opts.wpAdmin ? [`<a href="${a.root}wp-admin/">wp-admin</a>`] : []),
    ...(a.other
      ? [`<a href="${a.other.href}" hreflang="${a.other.lang}" lang="${a.other.lang}">${a.other.label}</a>`]
      : []),
  ];
  return `<!doctype html>
<html lang="${escapeHtml(a.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(opts.site.name)}</title>
<link rel="stylesheet" href="${a.assets}${STYLE}">
<script type="module" src="${a.assets}${SCRIPT}"></script>
</head>
<body>
<header><h1>${escapeHtml(opts.site.name)}</h1><nav>${links.join(' ')}</nav></header>
<main>
<calendar-gateway-view src="${escapeHtml(a.src)}" timezone="${escapeHtml(opts.site.timezone)}">
<p>${t.fallback} (<code>npm run elements:build</code>).</p>
</calendar-gateway-view>
</main>
</body>
</html>
`;
}

/** The router at CALENDAR_PATH, and the handler of `/` for demo mode. */
export function calendarPages(opts: CalendarPageOptions): {
  router: express.Router;
  home: express.RequestHandler;
} {
  const lang2 = opts.secondaryLanguage;
  const send = (res: Response, body: string) =>
    // The page names its own origin (the element's feed links are absolute): not shared between hosts.
    res.status(200).type('text/html; charset=utf-8').set('Cache-Control', 'no-cache').send(body);
  const html = (req: Request, secondary: boolean, assets: string, root: string) => {
    const base = publicBase(req, opts.publicUrl);
    const primary = `${base}/wp-json`;
    return page(opts, {
      lang: secondary ? lang2! : opts.language,
      src: secondary ? `${base}/${lang2}/wp-json` : primary,
      assets,
      root,
      other: lang2
        ? secondary
          ? { lang: opts.language, href: '../', label: opts.language === 'en' ? 'English' : opts.language }
          : { lang: lang2, href: `${assets}${lang2}/`, label: lang2 === 'es' ? 'Español' : lang2 }
        : undefined,
    });
  };
  const router = express.Router({ strict: true });
  router.use(pageHeaders(opts.publicUrl));
  const slash = (req: Request, res: Response) => {
    if (req.originalUrl.split('?')[0]!.endsWith('/')) return false;
    res.redirect(301, `${req.baseUrl}${req.path === '/' ? '' : req.path}/`);
    return true;
  };
  router.get('/', (req, res) => {
    if (!slash(req, res)) send(res, html(req, false, '', '../../../'));
  });
  if (lang2) {
    router.get(`/${lang2}`, (req, res) => {
      res.redirect(301, `${req.baseUrl}/${lang2}/`);
    });
    router.get(`/${lang2}/`, (req, res) => send(res, html(req, true, '../', '../../../../')));
  }
  router.get(`/${STYLE}`, (_req, res) => {
    res.status(200).type('text/css; charset=utf-8').set('Cache-Control', 'public, max-age=300').send(CSS);
  });
  router.get(`/${SCRIPT}`, (_req, res, next) => {
    if (!bundleBuilt()) return next();
    // Any site may load it (a WordPress page with the companion's block, another origin): a module script is
    // fetched with CORS.
    res
      .type('text/javascript; charset=utf-8')
      .set({ 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' });
    res.sendFile(BUNDLE);
  });
  const home: express.RequestHandler = (req, res) => {
    pageHeaders(opts.publicUrl)(req, res, () =>
      send(res, html(req, false, `${CALENDAR_PATH.slice(1)}/`, '')),
    );
  };
  return { router, home };
}
