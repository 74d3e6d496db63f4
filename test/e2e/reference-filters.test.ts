// The API reference page's list filters in a real headless Chromium: categories by slug and by id (what /doc says
// they take), sent as the gateway reads them, against a demo gateway started as `npm start` does.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, newPage } from '../browser.ts';
import { guard } from '../slack.ts';
import { type Server, startDemo } from './demo.ts';

let gw: Server;
let browser: Browser;

beforeAll(async () => {
  gw = await startDemo({ DEMO_EVENTS: '60' });
  browser = await launchChromium();
}, guard(120_000));

afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

it('filters the events by a category slug and a category id typed into the page', {
  timeout: guard(90_000),
}, async () => {
  const api = `${gw.url}/wp-json/calendar/events/v1`;
  const [jazz] = (await (await fetch(`${api}/categories?slug=jazz`)).json()).categories as Array<{
    id: number;
  }>;
  const [theatre] = (await (await fetch(`${api}/categories?slug=theatre`)).json()).categories as Array<{
    id: number;
  }>;
  const expected = (await (await fetch(`${api}/events?categories=jazz,${theatre!.id}`)).json()) as {
    total: number;
  };
  const jazzOnly = (await (await fetch(`${api}/events?categories=${jazz!.id}`)).json()) as { total: number };
  expect(expected.total).toBeGreaterThan(jazzOnly.total);

  const page = await newPage(browser);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(`${api}/events?`)) sent.push(r.url());
  });
  await page.goto(`${gw.url}/calendar-gateway/v1/reference/`);
  const list = page
    .locator('.opblock-get')
    .filter({ has: page.locator('[data-path="/events"]') })
    .first();
  await list.locator('.opblock-summary').click();
  const categories = list.locator('tr[data-param-name="categories"]');
  // A list of texts: each input takes an id or a slug.
  await expect.poll(() => categories.locator('.parameter__type').textContent()).toContain('array<string>');
  for (const value of ['jazz', String(theatre!.id)]) {
    await categories.getByRole('button', { name: /Add .*item/ }).click();
    await categories.locator('input').last().fill(value);
  }
  await list.locator('button.execute').click();
  const body = list.locator('.responses-wrapper .live-responses-table .highlight-code code');
  await body.first().waitFor();
  const answered = JSON.parse((await body.first().textContent()) ?? '') as { total: number };
  expect(sent.at(-1)).toMatch(new RegExp(`[?&]categories=jazz(%2C|,)${theatre!.id}(&|$)`));
  expect(answered.total).toBe(expected.total);
});
