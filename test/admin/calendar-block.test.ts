// The companion's block "Calendar (gateway)" in the real block editor (Debian's Chromium, the real WordPress): an
// editor inserts it from the inserter, sets its view and a filter in the block sidebar and publishes; the post's
// page then runs <calendar-gateway-view> from the configured gateway, with those settings, on the gateway's API.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newPage } from '../browser.ts';
import { guard } from '../slack.ts';
import {
  type Admin,
  editedPostId,
  launchChromium,
  logIn,
  loginPassword,
  openAdmin,
  pageTheme,
  typeTitle,
} from './support.ts';

let browser: Browser;
let a: Admin;
const site = inject('adminSites').find((s) => s.name === 'tec') ?? inject('adminSites')[0]!;

beforeAll(async () => {
  browser = await launchChromium();
  a = await openAdmin(site);
  await pageTheme(site);
  // The filter the editor sets names a category the site has (an unknown slug is a 400, shown as the error state).
  const base = a.mapping.event.categories!.restBase;
  const found = await a.wp<Array<{ id: number }>>('admin', `/wp/v2/${base}?slug=jazz`);
  if (found.length === 0) await a.wp('admin', `/wp/v2/${base}`, { body: { name: 'Jazz', slug: 'jazz' } });
}, guard(120_000));
afterAll(async () => {
  await a?.close();
  await browser?.close();
});

describe('the block "Calendar (gateway)"', () => {
  it('is inserted and set in the block editor, and its page shows the element from the gateway', {
    timeout: guard(180_000),
  }, async () => {
    const page = await logIn(browser, site, 'editor', await loginPassword(site));
    await page.goto(`${site.origin}/wp-admin/post-new.php`);
    await typeTitle(page, 'Our calendar');
    await page
      .getByRole('button', { name: /Toggle block inserter|Add block/ })
      .first()
      .click();
    await page.getByPlaceholder('Search').fill('Calendar (gateway)');
    await page.getByRole('option', { name: 'Calendar (gateway)' }).click();
    // The canvas shows what the block will be; the sidebar sets it.
    const preview = page.locator('.calendar-gateway-block-preview');
    await expect.poll(() => preview.textContent()).toContain(`Month view from ${a.gateway.url}`);
    const settings = page.getByRole('button', { name: 'Settings', exact: true }).first();
    if ((await settings.getAttribute('aria-expanded')) !== 'true') await settings.click();
    await page.getByLabel('View', { exact: true }).selectOption('week');
    await page.getByLabel('Categories (slugs, comma-separated)').fill('jazz');
    await expect.poll(() => preview.textContent()).toContain(`Week view from ${a.gateway.url}`);
    expect(await preview.textContent()).toContain('categories: jazz');

    const saved = page.waitForResponse(
      (r) => r.request().method() === 'POST' && /\/wp\/v2\/posts\/\d+/.test(r.url()) && r.status() === 200,
    );
    await page.getByRole('button', { name: 'Publish', exact: true }).first().click();
    await page.locator('.editor-post-publish-panel__header-publish-button').getByRole('button').click();
    const post = (await (await saved).json()) as { status: string; link: string };
    expect(post.status).toBe('publish');
    const id = await editedPostId(page);
    const stored = await a.wp<{ content: { raw: string } }>('editor', `/wp/v2/posts/${id}?context=edit`);
    expect(stored.content.raw).toContain(
      '<!-- wp:calendar-gateway/calendar {"view":"week","categories":"jazz"} /-->',
    );

    // A visitor's page: the bundle from the gateway as a module, the element on the gateway's API.
    const visitor = await newPage(browser);
    const requests: string[] = [];
    visitor.on('request', (r) => requests.push(r.url()));
    await visitor.goto(post.link);
    const html = await visitor.content();
    expect(html.slice(html.indexOf('<main'), html.indexOf('</main>'))).toContain('<calendar-gateway-view');
    const element = visitor.locator('calendar-gateway-view');
    expect(await element.getAttribute('src')).toBe(`${a.gateway.url}/wp-json`);
    expect(await element.getAttribute('view')).toBe('week');
    expect(await element.getAttribute('categories')).toBe('jazz');
    await visitor.locator('calendar-gateway-view .calendar[aria-busy="false"]').waitFor();
    const alert = visitor.locator('calendar-gateway-view [role="alert"]');
    expect(
      await alert.count(),
      (await alert.count()) ? ((await alert.first().textContent()) ?? '') : '',
    ).toBe(0);
    expect(
      await visitor.locator('calendar-gateway-view [data-view="week"]').getAttribute('aria-pressed'),
    ).toBe('true');
    expect(requests).toContain(`${a.gateway.url}/calendar-gateway/v1/calendar/calendar-gateway-view.js`);
    const list = requests.find((u) => u.startsWith(`${a.api}/events?`));
    expect(new URL(list!).searchParams.get('categories')).toBe('jazz');
    await visitor.close();
    await page.context().close();
  });
});
