// <calendar-gateway-view> in Debian's headless Chromium against a demo gateway (`npm start`'s): the month checked
// against /events across a DST change and for an all-day event over several days, the requests it makes, keyboard,
// filters in the URL, Subscribe, Spanish, an axe-core scan, and the screenshots of docs/images.
import { createRequire } from 'node:module';
import { DateTime } from 'luxon';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext } from '../browser.ts';
import { guard } from '../slack.ts';
import {
  allEvents,
  expectedMonth,
  focused,
  loaded,
  nextOffsetChange,
  shownMonth,
  text,
} from '../support/calendar-view.ts';
import { postEvent, type Server, startDemo } from './demo.ts';

const PASSWORD = 'calendar-element-password';
const ZONE = 'America/New_York';
const PAGE_PATH = '/calendar-gateway/v1/calendar/';

let gw: Server;
let browser: Browser;
let month: string;
/** The first and last days the month grid shows (weeks from Sunday, the `en` locale's first day). */
let days: string[];
const fixtures = { allDay: 0, afterChange: 0, beforeChange: 0 };
let dstDay: DateTime;

async function create(body: Record<string, unknown>): Promise<number> {
  const auth = `Basic ${Buffer.from(`editor:${PASSWORD}`).toString('base64')}`;
  const res = await postEvent(gw.url, auth, body);
  if (res.status !== 201) throw new Error(`POST /events: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: number }).id;
}

async function newPage(opts: { colorScheme?: 'light' | 'dark'; bypassCSP?: boolean } = {}) {
  const context: BrowserContext = await newContext(browser, {
    viewport: { width: 1200, height: 900 },
    colorScheme: opts.colorScheme ?? 'light',
    bypassCSP: opts.bypassCSP ?? false,
    locale: 'en-US',
    timezoneId: 'Europe/Madrid',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  const api: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/wp-json/')) api.push(r.url());
  });
  return { page, context, problems, api };
}

beforeAll(async () => {
  gw = await startDemo({ DEMO_EVENTS: '400', DEMO_PASSWORD: PASSWORD });
  browser = await launchChromium();
  // The month of the site zone's next DST change, with an all-day event over three days across it and one timed
  // event at 10:00 on either side of it (their UTC hours differ by one).
  dstDay = nextOffsetChange(ZONE, DateTime.now().plus({ days: 1 }));
  const sql = (d: DateTime, time: string) => `${d.toISODate()} ${time}`;
  fixtures.allDay = await create({
    title: 'Element fixture: three-day festival',
    start_date: sql(dstDay.minus({ days: 1 }), '00:00:00'),
    end_date: sql(dstDay.plus({ days: 1 }), '23:59:59'),
    all_day: true,
    categories: ['jazz'],
  });
  fixtures.beforeChange = await create({
    title: 'Element fixture: before the change',
    start_date: sql(dstDay.minus({ days: 1 }), '10:00:00'),
    end_date: sql(dstDay.minus({ days: 1 }), '11:00:00'),
  });
  fixtures.afterChange = await create({
    title: 'Element fixture: after the change',
    start_date: sql(dstDay.plus({ days: 1 }), '10:00:00'),
    end_date: sql(dstDay.plus({ days: 1 }), '11:00:00'),
    categories: ['jazz'],
  });
  month = dstDay.toFormat('yyyy-MM');
  const first = DateTime.fromISO(`${month}-01`);
  const start = first.minus({ days: first.weekday % 7 });
  const lastOfMonth = first.endOf('month').startOf('day');
  const end = lastOfMonth.plus({ days: 6 - (lastOfMonth.weekday % 7) });
  days = [];
  for (let d = start; d <= end; d = d.plus({ days: 1 })) days.push(d.toISODate()!);
}, guard(180_000));

afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

const dayBefore = (day: string) => DateTime.fromISO(day).minus({ days: 1 }).toISODate()!;

describe('<calendar-gateway-view> on the demo gateway', () => {
  it('is the page at / in demo mode and at /calendar-gateway/v1/calendar/, with the reference page’s headers', async () => {
    const reference = await fetch(`${gw.url}/calendar-gateway/v1/reference/`);
    const headers = [
      'content-security-policy',
      'x-frame-options',
      'x-content-type-options',
      'referrer-policy',
    ];
    const pages = ['/', PAGE_PATH, `${PAGE_PATH}es/`];
    for (const path of [...pages, `${PAGE_PATH}calendar-gateway-view.js`, `${PAGE_PATH}page.css`]) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.status, path).toBe(200);
      for (const h of headers) expect(res.headers.get(h), `${path} ${h}`).toBe(reference.headers.get(h));
      const body = await res.text();
      if (!pages.includes(path)) continue;
      expect(body, path).toContain('<calendar-gateway-view src="');
      expect(body, path).toMatch(/<script type="module" src="[^":]*calendar-gateway-view\.js"><\/script>/);
      expect(body, path).toContain('calendar-gateway/v1/reference/');
      expect(body, path).toContain('/calendar/events/v1/events.ics');
      // The demo's WordPress is in memory: it has no wp-admin to link.
      expect(body, path).not.toContain('wp-admin');
    }
    const script = await fetch(`${gw.url}${PAGE_PATH}calendar-gateway-view.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    const bare = await fetch(`${gw.url}${PAGE_PATH.slice(0, -1)}`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, PAGE_PATH]);
  });

  it('shows the month of a DST change with every event of /events on its days, in one list request per page', {
    timeout: guard(120_000),
  }, async () => {
    const { page, problems, api } = await newPage();
    await page.goto(`${gw.url}${PAGE_PATH}?cg_date=${month}`);
    await loaded(page);
    const expectedEvents = await allEvents(gw.url, {
      ends_after: dayBefore(days[0]!),
      starts_before: days.at(-1)!,
    });
    const expected = expectedMonth(expectedEvents, days, ZONE);
    // The API's pages of that range, and nothing else: not the filters' choices, not a second range.
    const pages = Math.ceil(expectedEvents.length / 50);
    expect(pages).toBeGreaterThan(1);
    expect(api).toHaveLength(pages);
    for (const [i, url] of api.entries()) {
      const q = new URL(url).searchParams;
      expect(new URL(url).pathname).toBe('/wp-json/calendar/events/v1/events');
      expect(Object.fromEntries(q)).toEqual({
        ends_after: dayBefore(days[0]!),
        starts_before: days.at(-1)!,
        per_page: '50',
        page: String(i + 1),
      });
    }
    const shown = await shownMonth(page);
    expect([...shown.keys()]).toEqual(days);
    for (const day of days) expect([...shown.get(day)!].sort(), day).toEqual([...expected.get(day)!].sort());
    // The fixtures by name: the all-day event on its three days across the change, the timed ones at 10:00 local.
    const around = [-1, 0, 1].map((n) => dstDay.plus({ days: n }).toISODate()!);
    for (const d of around) expect(shown.get(d)!.has(fixtures.allDay), d).toBe(true);
    expect(shown.get(around[0]!)!.has(fixtures.beforeChange)).toBe(true);
    expect(shown.get(around[2]!)!.has(fixtures.afterChange)).toBe(true);
    for (const id of [fixtures.beforeChange, fixtures.afterChange]) {
      const time = page.locator(`calendar-gateway-view .month [data-event-id="${id}"] .time`);
      if (await time.count()) expect(await text(time)).toBe('10:00 AM');
    }
    const bar = page.locator(`calendar-gateway-view .month .bar[data-event-id="${fixtures.allDay}"]`).first();
    expect(await bar.getAttribute('data-first')).toBe(around[0]);
    expect(await bar.getAttribute('data-last')).toBe(around[2]);
    expect(problems).toEqual([]);
  });

  it('is reached and opened by keyboard: Tab to the grid, arrows to a day, Enter, Enter on an event, Esc', {
    timeout: guard(60_000),
  }, async () => {
    const { page } = await newPage();
    await page.goto(`${gw.url}${PAGE_PATH}?cg_date=${month}`);
    await loaded(page);
    let at = await focused(page);
    for (let i = 0; i < 40 && at.role !== 'gridcell'; i++) {
      await page.keyboard.press('Tab');
      at = await focused(page);
    }
    expect(at.role).toBe('gridcell');
    const target = dstDay.plus({ days: 1 });
    let steps = Math.round(target.diff(DateTime.fromISO(at.day!), 'days').days);
    const press = async (key: string, n: number) => {
      for (let i = 0; i < n; i++) await page.keyboard.press(key);
    };
    await press(steps < 0 ? 'ArrowUp' : 'ArrowDown', Math.floor(Math.abs(steps) / 7));
    steps -= Math.sign(steps) * 7 * Math.floor(Math.abs(steps) / 7);
    await press(steps < 0 ? 'ArrowLeft' : 'ArrowRight', Math.abs(steps));
    expect((await focused(page)).day).toBe(target.toISODate());
    await page.keyboard.press('Enter');
    await page.locator('calendar-gateway-view dialog[open]').waitFor();
    for (let i = 0; i < 30 && (await focused(page)).id !== String(fixtures.afterChange); i++) {
      await page.keyboard.press('Tab');
    }
    expect((await focused(page)).id).toBe(String(fixtures.afterChange));
    await page.keyboard.press('Enter');
    const title = page.locator('calendar-gateway-view dialog[open] #dialog-title');
    await expect.poll(() => text(title)).toBe('Element fixture: after the change');
    expect(await text(page.locator('calendar-gateway-view dialog[open] .detail'))).toContain('10:00');
    await page.keyboard.press('Escape');
    await page.locator('calendar-gateway-view dialog[open]').waitFor({ state: 'detached' });
    expect(await focused(page)).toMatchObject({ role: 'gridcell', day: target.toISODate() });
  });

  it('filters by category into the URL and the results, and Subscribe gives that filter’s feed', {
    timeout: guard(90_000),
  }, async () => {
    const { page, api } = await newPage();
    await page.goto(`${gw.url}${PAGE_PATH}?cg_date=${month}`);
    await loaded(page);
    await page.locator('calendar-gateway-view .filters summary').click();
    await page
      .locator('calendar-gateway-view select[name="categories"] option[value="jazz"]')
      .waitFor({ state: 'attached' });
    await page.locator('calendar-gateway-view select[name="categories"]').selectOption('jazz');
    await page.locator('calendar-gateway-view .filter-form button[type="submit"]').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('cg_category')).toBe('jazz');
    await loaded(page);
    expect(api.at(-1)).toContain('categories=jazz');
    const jazz = await allEvents(gw.url, {
      ends_after: dayBefore(days[0]!),
      starts_before: days.at(-1)!,
      categories: 'jazz',
    });
    const shown = await shownMonth(page);
    const shownIds = new Set([...shown.values()].flatMap((s) => [...s]));
    expect([...shownIds].sort()).toEqual([...new Set(jazz.map((e) => e.id))].sort());
    expect(shownIds.has(fixtures.allDay) && !shownIds.has(fixtures.beforeChange)).toBe(true);

    // The filtered view, shared: a new page at that URL shows the same.
    const shared = await newPage();
    await shared.page.goto(page.url());
    await loaded(shared.page);
    expect(shared.api[0]).toContain('categories=jazz');

    await page.locator('calendar-gateway-view .subscribe summary').click();
    const host = new URL(gw.url).host;
    const feed = `//${host}/wp-json/calendar/events/v1/events.ics?categories=jazz`;
    const webcal = await page.locator('calendar-gateway-view .subscribe a.webcal').getAttribute('href');
    expect(webcal).toBe(`webcal:${feed}`);
    expect(await page.locator('calendar-gateway-view .subscribe a.google').getAttribute('href')).toBe(
      `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(`webcal:${feed}`)}`,
    );
    expect(await page.locator('calendar-gateway-view .subscribe input.feed').inputValue()).toBe(
      `http:${feed}`,
    );
    const ics = await fetch(`http:${feed}`);
    expect(ics.headers.get('content-type')).toMatch(/^text\/calendar/);
    const text = await ics.text();
    expect(text).toContain('Element fixture: three-day festival');
    expect(text).not.toContain('Element fixture: before the change');
  });

  it('speaks Spanish on the /es/ root: words, and dates by Intl', { timeout: guard(60_000) }, async () => {
    const { page, api } = await newPage();
    await page.goto(`${gw.url}${PAGE_PATH}es/?cg_date=${month}`);
    await loaded(page);
    const expectedTitle = new Intl.DateTimeFormat('es', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${month}-15T12:00:00Z`));
    expect((await text(page.locator('calendar-gateway-view #title'))).toLowerCase()).toBe(expectedTitle);
    expect(await text(page.locator('calendar-gateway-view .today'))).toBe('Hoy');
    expect(await text(page.locator('calendar-gateway-view [data-view="month"]'))).toBe('Mes');
    expect(await text(page.locator('calendar-gateway-view .subscribe summary'))).toBe('Suscribirse');
    // Weeks start on Monday in Spanish, and the weekday names are Spanish.
    const first = await text(page.locator('calendar-gateway-view .month [role="columnheader"]').first());
    expect(first.toLowerCase()).toMatch(/^lun/);
    expect(api.every((u) => new URL(u).pathname.startsWith('/es/wp-json/'))).toBe(true);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
  });

  it('has no serious or critical axe-core violation in any view, light or dark, nor with an event open', {
    timeout: guard(180_000),
  }, async () => {
    const axe = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
    const scan = async (page: Page) => {
      await page.addScriptTag({ path: axe });
      const result = (await page.evaluate(() =>
        (window as unknown as { axe: { run: (o: unknown) => Promise<unknown> } }).axe.run({
          resultTypes: ['violations'],
        }),
      )) as { violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> };
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${JSON.stringify(v.nodes.map((n) => n.target).slice(0, 3))}`);
    };
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const view of ['month', 'week', 'list']) {
        // The axe script is added inline: only this test lifts the page's policy.
        const { page, context } = await newPage({ colorScheme, bypassCSP: true });
        const date = view === 'week' ? dstDay.toISODate() : month;
        await page.goto(`${gw.url}${PAGE_PATH}?cg_view=${view}&cg_date=${date}`);
        await loaded(page);
        expect(await scan(page), `${view} ${colorScheme}`).toEqual([]);
        if (view === 'month') {
          await page
            .locator(`calendar-gateway-view .month [data-event-id="${fixtures.allDay}"]`)
            .first()
            .click();
          await page.locator('calendar-gateway-view dialog[open] .detail').waitFor();
          expect(await scan(page), `event dialog ${colorScheme}`).toEqual([]);
        }
        await context.close();
      }
    }
  });

  it('takes the screenshots of the README: month, week and list, light and dark', {
    timeout: guard(120_000),
  }, async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const view of ['month', 'week', 'list']) {
        const { page, context } = await newPage({ colorScheme });
        const date =
          view === 'week'
            ? dstDay.plus({ days: 1 }).toISODate()
            : view === 'list'
              ? dstDay.minus({ days: 3 }).toISODate()
              : month;
        await page.goto(`${gw.url}${PAGE_PATH}?cg_view=${view}&cg_date=${date}`);
        await loaded(page);
        await page.screenshot({
          path: `docs/images/calendar-${view}-${colorScheme}.png`,
          clip: { x: 0, y: 0, width: 1200, height: 900 },
        });
        await context.close();
      }
    }
  });
});
