// Helpers of the admin tests: a gateway notified by the site's webhook, logging in through wp-login.php, the block
// editor's panels, and the site's stored meta rows.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import { configSchema } from '../../src/config.ts';
import { type Gateway, loadMapping, startGateway } from '../../src/gateway.ts';
import type { Mapping, ResourceKind } from '../../src/mapping/schema.ts';
import { newContext } from '../browser.ts';
import type { AdminSite } from '../setup/admin.ts';
import { guard, upstreamDeadlineMs } from '../slack.ts';

const SITE_PHP = fileURLToPath(new URL('./site.php', import.meta.url));
const php = (site: AdminSite, ...args: string[]) =>
  promisify(execFile)('php', [SITE_PHP, site.siteDir, ...args], { timeout: guard(60_000) });

export type User = 'admin' | 'editor' | 'author' | 'contributor' | 'subscriber';

export interface Admin {
  site: AdminSite;
  mapping: Mapping;
  gateway: Gateway;
  /** The gateway's `…/wp-json/calendar/events/v1`. */
  api: string;
  /** wp/v2 call on the site with a user's application password; resolves the JSON body (throws unless 2xx). */
  wp<T = Record<string, unknown>>(
    as: User,
    path: string,
    init?: { method?: string; body?: unknown },
  ): Promise<T>;
  close(): Promise<void>;
}

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A gateway in front of the site, with the site's webhook pointed at it (as `wp.sh --gateway URL` would). */
export async function openAdmin(site: AdminSite): Promise<Admin> {
  const secret = `panels-${randomBytes(12).toString('hex')}`;
  const config = configSchema.parse({
    port: 0,
    host: '127.0.0.1',
    upstreamUrl: site.url,
    upstreamAuth: `admin:${site.usersPassword}`,
    mapping: site.mapping,
    // No polling: what the gateway shows fresh is the webhook's doing.
    pollIntervalMs: 0,
    upstreamTimeoutMs: upstreamDeadlineMs,
    webhookSecret: secret,
    logLevel: 'silent',
  });
  const gateway = await startGateway({ ...config, upstreamUrl: site.url }, { quiet: true });
  const wp: Admin['wp'] = async (as, path, init = {}) => {
    const res = await fetch(`${site.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { Authorization: basic(as, site.usersPassword), 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  await wp('admin', '/wp/v2/settings', {
    body: { calendar_gateway_webhook: { url: `${gateway.url}/calendar-gateway/v1/notify`, secret } },
  });
  return {
    site,
    mapping: await loadMapping(site.mapping),
    gateway,
    api: `${gateway.url}/wp-json/calendar/events/v1`,
    wp,
    close: async () => {
      await wp('admin', '/wp/v2/settings', { body: { calendar_gateway_webhook: { url: '', secret: '' } } });
      await gateway.close();
    },
  };
}

/**
 * The wp-login.php password of the seeded users, as wp.sh prints it (WP_LOGIN_PASSWORD), with the block editor's
 * welcome guide dismissed for them through the site's PHP (the password is set only where it differs).
 */
export async function loginPassword(site: AdminSite): Promise<string> {
  await php(site, 'login-password', site.loginPassword);
  return site.loginPassword;
}

/** A bare theme on the site, so its front end shows posts (Debian's WordPress ships none): see site.php. */
export async function pageTheme(site: AdminSite): Promise<void> {
  await php(site, 'page-theme');
}

export { launchChromium } from '../browser.ts';

/** A fresh browser context logged in as `user` through wp-login.php. */
export async function logIn(browser: Browser, site: AdminSite, user: User, password: string): Promise<Page> {
  const context = await newContext(browser, { viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  // Leaving an editor with unsaved changes asks first: the tests leave.
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${site.origin}/wp-login.php`);
  await page.getByLabel('Username or Email Address').fill(user);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(/\/wp-admin\/?$/);
  return page;
}

const PANEL_TITLES: Record<ResourceKind, string> = {
  event: 'Event details',
  venue: 'Venue details',
  organizer: 'Organizer details',
};

/** Whether `locator` is attached within `ms`. */
const shows = (locator: Locator, ms: number): Promise<boolean> =>
  locator.waitFor({ timeout: ms }).then(
    () => true,
    () => false,
  );

/** Opens the block editor on a new post of `kind` (or post `id`) and unfolds the companion's panel. */
export async function openEditor(page: Page, a: Admin, kind: ResourceKind, id?: number): Promise<void> {
  const url =
    id === undefined
      ? `${a.site.origin}/wp-admin/post-new.php?post_type=${a.mapping[kind].postType}`
      : `${a.site.origin}/wp-admin/post.php?post=${id}&action=edit`;
  await page.goto(url);
  const name = PANEL_TITLES[kind];
  const toggle = page.getByRole('button', { name, exact: true });
  const opened = page.getByRole('button', { name, exact: true, expanded: true });
  await toggle.waitFor();
  // Clicked until it shows open: a full run's lanes (2026-12-01, load ~15) had the venue's editor load (200) and its
  // toggle found, then no field of the panel for 90 s; a click on a toggle the editor re-renders as it settles is lost.
  for (let tries = 0; tries < 3; tries++) {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    if (await shows(opened, guard(5000))) return;
  }
  throw new Error(`the ${name} panel did not open (post ${id ?? 'new'})`);
}

/** The id of the post the editor has open. */
export const editedPostId = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as WpGlobal).wp.data.select('core/editor').getCurrentPostId());

interface WpGlobal {
  wp: { data: { select(store: string): { getCurrentPostId(): number } } };
}

/** Types the post's title into the editor. */
export async function typeTitle(page: Page, title: string): Promise<void> {
  const field = page.getByRole('textbox', { name: 'Add title' });
  await field.click();
  await page.keyboard.type(title);
}

/** Publishes through the header button and the pre-publish check; resolves once WordPress answered the save. */
export async function publish(page: Page, a: Admin, kind: ResourceKind): Promise<void> {
  const saved = page.waitForResponse(
    (r) =>
      r.request().method() === 'POST' &&
      r.url().includes(`/wp/v2/${a.mapping[kind].restBase}/`) &&
      r.status() === 200,
  );
  await page.getByRole('button', { name: 'Publish', exact: true }).first().click();
  await page.locator('.editor-post-publish-panel__header-publish-button').getByRole('button').click();
  const body = (await (await saved).json()) as { status: string };
  if (body.status !== 'publish') throw new Error(`saved as ${body.status}, not published`);
}

/** Saves the post being edited (the Update button of a published post); resolves once WordPress answered. */
export async function update(page: Page, a: Admin, kind: ResourceKind): Promise<void> {
  const saved = page.waitForResponse(
    (r) =>
      r.request().method() === 'POST' &&
      r.url().includes(`/wp/v2/${a.mapping[kind].restBase}/`) &&
      r.status() === 200,
  );
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await saved;
}

/** The meta rows a post has in the database (every row, as get_post_meta gives them) and its menu_order. */
export async function storedRows(
  site: AdminSite,
  id: number,
): Promise<{ menu_order: number; meta: Record<string, string[]> }> {
  return JSON.parse((await php(site, 'meta', String(id))).stdout);
}

/**
 * How long after now a read first sees `check` hold: the start of the first read that does, in milliseconds (what a
 * read then costs is WordPress's speed on this machine, not the change's delay). Throws when no read started within
 * `ms` does.
 */
export async function seenWithin<T>(
  ms: number,
  read: () => Promise<T>,
  check: (v: T) => boolean,
): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const started = Date.now() - t0;
    const v = await read();
    if (check(v)) return started;
    if (Date.now() - t0 > ms) throw new Error(`not seen within ${ms} ms; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
