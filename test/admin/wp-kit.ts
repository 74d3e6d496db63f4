// What the wp-admin list, settings and tooling tests share (list-settings.test.ts, wp-tools.test.ts): the sites of
// this project, a gateway on one, and a Chromium with logged-in sessions.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type Server, startChild } from '../../bench/lib.ts';
import { ensureWordPress, type WordPressUpstream } from '../../wordpress/upstream.ts';
import { launchChromium, newContext } from '../browser.ts';
import { adminSites, adminStateDir, portFor } from '../setup/sites.ts';

export const root = resolve(import.meta.dirname, '../..');
export const run = promisify(execFile);
export const images = join(root, 'docs/images');

/** This project's site of a mapping (started with the run's sites by test/setup/sites.ts; reused, quick). */
export const site = async (name: 'tec' | 'custom') => {
  const s = adminSites.find((x) => x.name === name)!;
  const stateDir = adminStateDir(name);
  return ensureWordPress({ mapping: s.mapping, stateDir, port: await portFor(stateDir, s.port) });
};

/** A gateway on `wp` as the editor, taking change notifications signed with `secret`. */
export const gatewayOn = (
  wp: WordPressUpstream,
  secret: string,
  env: Record<string, string> = {},
): Promise<Server> =>
  startChild(['src/main.ts'], {
    PORT: '0',
    HOST: '127.0.0.1',
    UPSTREAM_URL: wp.url,
    UPSTREAM_AUTH: `editor:${wp.usersPassword}`,
    WEBHOOK_SECRET: secret,
    REDIS_URL: '',
    LOG_LEVEL: 'silent',
    ...env,
  });

export interface MappingFile {
  event: { postType: string; restBase: string; fields: Record<string, { meta?: string }> };
  venue: { restBase: string };
}
export const mappingOf = (name: string): MappingFile =>
  JSON.parse(readFileSync(join(root, `mappings/${name}.json`), 'utf8')) as MappingFile;

export const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A headless Chromium and the logged-in contexts of the users a file signs in as. */
export class AdminBrowser {
  #browser?: Browser;
  readonly #sessions = new Map<string, Promise<{ context: BrowserContext; page: Page }>>();

  async open(): Promise<void> {
    this.#browser = await launchChromium();
  }

  async close(): Promise<void> {
    await this.#browser?.close();
  }

  /** A user's logged-in browser context on a site, made once (closed with the browser). */
  session(wp: WordPressUpstream, user: string): Promise<{ context: BrowserContext; page: Page }> {
    const key = `${wp.adminUrl} ${user}`;
    if (!this.#sessions.has(key)) this.#sessions.set(key, this.login(wp, user));
    return this.#sessions.get(key)!;
  }

  /** A browser context logged in through wp-login.php with the printed login password. */
  async login(wp: WordPressUpstream, user: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await newContext(this.#browser!, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(new URL('../wp-login.php', wp.adminUrl).href);
    await page.fill('#user_login', user);
    await page.fill('#user_pass', wp.loginPassword);
    await Promise.all([page.waitForURL(/\/wp-admin\//), page.click('#wp-submit')]);
    return { context, page };
  }
}
