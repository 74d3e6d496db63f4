// The events list and Settings → Calendar gateway in wp-admin, in Debian's headless Chromium, against real WordPress
// sites of both mappings (wp.sh and the plugin zip: wp-tools.test.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Server } from '../../bench/lib.ts';
import type { WordPressUpstream } from '../../wordpress/upstream.ts';
import { guard } from '../slack.ts';
import { AdminBrowser, basic, gatewayOn, images, mappingOf, site } from './wp-kit.ts';

const ab = new AdminBrowser();
beforeAll(() => ab.open(), guard(120_000));
afterAll(() => ab.close());
const session = (wp: WordPressUpstream, user: string) => ab.session(wp, user);
const _login = (wp: WordPressUpstream, user: string) => ab.login(wp, user);

/** Records of a wp/v2 collection by id, with their meta (edit context, as the admin). */
async function records(
  wp: WordPressUpstream,
  restBase: string,
  ids: number[],
): Promise<Map<number, { meta: Record<string, unknown>; title: { raw: string } }>> {
  const res = await fetch(
    `${wp.url}/wp/v2/${restBase}?include=${ids.join(',')}&per_page=100&context=edit&status=any`,
    { headers: { Authorization: basic('admin', wp.usersPassword) } },
  );
  expect(res.status).toBe(200);
  const rows = (await res.json()) as Array<{
    id: number;
    meta: Record<string, unknown>;
    title: { raw: string };
  }>;
  return new Map(rows.map((r) => [r.id, r]));
}

/** The rows of the list table on the page: post id, the Start and End <time>s, the venue's id and name. */
const rowsOf = (page: Page) =>
  page.$$eval('#the-list tr[id^="post-"]', (trs) =>
    trs.map((tr) => ({
      id: Number(tr.id.slice(5)),
      start: tr.querySelector('td.column-calendar_gateway_start time')?.getAttribute('datetime') ?? null,
      end: tr.querySelector('td.column-calendar_gateway_end time')?.getAttribute('datetime') ?? null,
      venueId: Number(
        tr.querySelector('td.column-calendar_gateway_venue [data-venue-id]')?.getAttribute('data-venue-id') ??
          0,
      ),
      venue: tr.querySelector('td.column-calendar_gateway_venue')?.textContent?.trim() ?? '',
    })),
  );

const itemCount = async (page: Page) =>
  Number(((await page.textContent('.tablenav.top .displaying-num')) ?? '').replace(/\D/g, ''));

/** `Y-m-d H:i:s` as the <time datetime> the list prints. */
const iso = (stored: unknown) => (typeof stored === 'string' && stored ? stored.replace(' ', 'T') : null);
describe.each(['tec', 'custom'] as const)('the events list in wp-admin (%s mapping)', (name) => {
  const mapping = mappingOf(name);
  const keys = mapping.event.fields;
  const startKey = keys.start_date!.meta!;
  const endKey = keys.end_date!.meta!;
  // Sorting and the filter use the UTC keys where the mapping has them.
  const sortKey = keys.utc_start_date?.meta ?? startKey;
  const sortEndKey = keys.utc_end_date?.meta ?? endKey;
  const list = `edit.php?post_type=${mapping.event.postType}`;
  let wp: WordPressUpstream;
  let editor: { context: BrowserContext; page: Page };
  /** The site's time zone: a mapping without UTC keys stores wall-clock times of that zone. */
  let siteZone = 'UTC';

  beforeAll(async () => {
    wp = await site(name);
    editor = await session(wp, 'editor');
    const res = await fetch(`${wp.url}/wp/v2/settings`, {
      headers: { Authorization: basic('admin', wp.usersPassword) },
    });
    siteZone = ((await res.json()) as { timezone: string }).timezone || 'UTC';
  }, guard(180_000));

  /** Now on the site's wall clock, as `Y-m-d H:i:s`. */
  const siteNow = () =>
    new Intl.DateTimeFormat('sv-SE', {
      timeZone: siteZone,
      dateStyle: 'short',
      timeStyle: 'medium',
    }).format(new Date());

  it('shows Start, End and Venue as stored in the mapping keys', async () => {
    const { page } = editor;
    await page.goto(wp.adminUrl + list);
    const headers = await page.$$eval('#the-list', () =>
      Array.from(document.querySelectorAll('thead th'), (th) => th.textContent?.trim()),
    );
    expect(headers).toEqual(expect.arrayContaining(['Start', 'End', 'Venue']));
    const rows = await rowsOf(page);
    expect(rows.length).toBeGreaterThan(5);
    const stored = await records(
      wp,
      mapping.event.restBase,
      rows.map((r) => r.id),
    );
    for (const row of rows) {
      const meta = stored.get(row.id)!.meta;
      expect(row.start, `event ${row.id}`).toBe(iso(meta[startKey]));
      expect(row.end, `event ${row.id}`).toBe(iso(meta[endKey]));
    }
    const withVenue = rows.filter((r) => r.venueId > 0);
    expect(withVenue.length).toBeGreaterThan(0);
    const venues = await records(wp, mapping.venue.restBase, [...new Set(withVenue.map((r) => r.venueId))]);
    for (const row of withVenue) {
      expect(Number(stored.get(row.id)!.meta[keys.venue!.meta!])).toBe(row.venueId);
      expect(row.venue).toBe(venues.get(row.venueId)!.title.raw);
    }
    if (name === 'tec') {
      mkdirSync(images, { recursive: true });
      await page.screenshot({ path: join(images, 'admin-events-list.png') });
    }
  });

  it('sorts by start, earliest first then latest first', async () => {
    const { page } = editor;
    await page.goto(wp.adminUrl + list);
    await Promise.all([
      page.waitForURL(/orderby=calendar_gateway_start/),
      page.click('th#calendar_gateway_start a'),
    ]);
    const sortKeysOf = async () => {
      const rows = await rowsOf(page);
      const stored = await records(
        wp,
        mapping.event.restBase,
        rows.map((r) => r.id),
      );
      return rows.map((r) => String(stored.get(r.id)!.meta[sortKey] ?? ''));
    };
    const ascending = await sortKeysOf();
    expect(new Set(ascending).size).toBeGreaterThan(5);
    expect(ascending).toEqual([...ascending].sort());
    expect(page.url()).toMatch(/order=asc/);
    await Promise.all([page.waitForURL(/order=desc/), page.click('th#calendar_gateway_start a')]);
    const descending = await sortKeysOf();
    expect(descending).toEqual([...descending].sort().reverse());
    // The latest first is not the earliest first: the whole list was ordered, not one page.
    expect(descending[0]! > ascending.at(-1)!).toBe(true);
  });

  it('filters upcoming and past events, which together are all of them', async () => {
    const { page } = editor;
    await page.goto(wp.adminUrl + list);
    const all = await itemCount(page);
    const counts: Record<string, number> = {};
    for (const when of ['upcoming', 'past'] as const) {
      await page.selectOption('#calendar-gateway-when', when);
      await Promise.all([
        page.waitForURL(new RegExp(`calendar_gateway_when=${when}`)),
        page.click('#post-query-submit'),
      ]);
      counts[when] = await itemCount(page);
      const rows = await rowsOf(page);
      expect(rows.length).toBeGreaterThan(0);
      const stored = await records(
        wp,
        mapping.event.restBase,
        rows.map((r) => r.id),
      );
      // The site's clock for a mapping without UTC keys (the seeded site's zone), UTC otherwise.
      const now = keys.utc_end_date ? new Date().toISOString().slice(0, 19).replace('T', ' ') : siteNow();
      for (const row of rows) {
        const meta = stored.get(row.id)!.meta;
        const end = String(meta[sortEndKey] ?? meta[sortKey]);
        if (when === 'upcoming') expect(end >= now, `event ${row.id} ends ${end}`).toBe(true);
        else expect(end < now, `event ${row.id} ends ${end}`).toBe(true);
      }
      expect(await page.$eval('#calendar-gateway-when', (s) => (s as HTMLSelectElement).value)).toBe(when);
    }
    expect(counts.upcoming! + counts.past!).toBe(all);
  });
});

describe('Settings → Calendar gateway', () => {
  const secret = 'admin-screen-secret-0123456789';
  const settingsPath = 'options-general.php?page=calendar-gateway';
  let wp: WordPressUpstream;
  let gw: Server;
  let admin: { context: BrowserContext; page: Page };
  const adminAuth = () => ({ Authorization: basic('admin', wp.usersPassword) });
  const option = async () =>
    (
      (await (await fetch(`${wp.url}/wp/v2/settings`, { headers: adminAuth() })).json()) as {
        calendar_gateway_webhook: { url: string; secret: string };
      }
    ).calendar_gateway_webhook;

  beforeAll(async () => {
    wp = await site('tec');
    gw = await gatewayOn(wp, secret);
    admin = await session(wp, 'admin');
  }, guard(180_000));

  afterAll(async () => {
    await gw?.stop();
    // Leave the shared site without a webhook to a stopped gateway.
    if (wp) {
      await fetch(`${wp.url}/wp/v2/settings`, {
        method: 'POST',
        headers: { ...adminAuth(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ calendar_gateway_webhook: { url: '', secret: '' } }),
      });
    }
  });

  /** Fills and saves the form; returns the page's HTML after the redirect. */
  async function save(page: Page, url: string, newSecret: string): Promise<string> {
    await page.goto(wp.adminUrl + settingsPath);
    await page.fill('#calendar-gateway-url', url);
    await page.fill('#calendar-gateway-secret', newSecret);
    await Promise.all([page.waitForURL(/calendar-gateway=/), page.click('#submit')]);
    return page.content();
  }

  async function sendTest(page: Page): Promise<string> {
    await page.goto(wp.adminUrl + settingsPath);
    await Promise.all([page.waitForURL(/calendar-gateway=tested/), page.click('#calendar-gateway-test')]);
    return (await page.textContent('#calendar-gateway-test-result')) ?? '';
  }

  it('saves the URL and the secret, never shows the secret, and keeps it when left blank', async () => {
    const { page } = admin;
    const html = await save(page, gw.url, secret);
    expect(await page.textContent('#calendar-gateway-notice')).toContain('Settings saved.');
    expect(html).not.toContain(secret);
    expect(await page.inputValue('#calendar-gateway-secret')).toBe('');
    // A gateway's base URL gets the notify endpoint's path.
    expect(await option()).toEqual({ url: `${gw.url}/calendar-gateway/v1/notify`, secret });
    await save(page, `${gw.url}/calendar-gateway/v1/notify`, '');
    expect(await option()).toEqual({ url: `${gw.url}/calendar-gateway/v1/notify`, secret });
    // A secret the gateway would refuse (under 16 characters) is not saved.
    await save(page, gw.url, 'short');
    expect(await page.textContent('#calendar-gateway-notice')).toContain('at least 16 characters');
    expect((await option()).secret).toBe(secret);
  });

  it('sends a signed test notification that the gateway accepts, dropping nothing', async () => {
    const text = await sendTest(admin.page);
    expect(text).toContain(`${gw.url}/calendar-gateway/v1/notify: accepted (HTTP 202)`);
    expect(text).toContain('{"accepted":0,"invalidated":[]}');
    expect(await admin.page.getAttribute('#calendar-gateway-test-result', 'class')).toContain(
      'notice-success',
    );
    await admin.page.screenshot({ path: join(images, 'admin-settings.png'), fullPage: true });
  });

  it('reports a wrong secret as refused, and a gateway that does not answer as unreachable', async () => {
    const { page } = admin;
    await save(page, gw.url, 'not-the-gateway-secret-xyz');
    const refused = await sendTest(page);
    expect(refused).toContain('refused (HTTP 401)');
    expect(refused).toContain('Missing or wrong x-calendar-gateway-signature.');
    expect(await page.getAttribute('#calendar-gateway-test-result', 'class')).toContain('notice-error');
    await save(page, `http://127.0.0.1:${await freePort()}`, '');
    expect(await sendTest(page)).toMatch(/notify: unreachable \(.+\)/);
    await save(page, gw.url, secret);
    expect(await sendTest(page)).toContain('accepted (HTTP 202)');
  });

  it('shows the last notification after an editor publishes an event', async () => {
    const { page } = admin;
    await save(page, gw.url, secret);
    const before = Math.floor(Date.now() / 1000) - 1;
    const res = await fetch(`${wp.url}/wp/v2/tribe_events`, {
      method: 'POST',
      headers: { Authorization: basic('editor', wp.usersPassword), 'Content-Type': 'application/json' },
      body: JSON.stringify({
        title: 'Published by the editor',
        status: 'publish',
        meta: { _EventStartDate: '2031-05-01 19:00:00', _EventEndDate: '2031-05-01 21:00:00' },
      }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: number };
    try {
      // The plugin may record the publish's notification after WordPress answered the save (CI once showed the
      // settings' test notification still): the page is read again until it shows a notification of changes.
      let last = '';
      const lastShown = async () => {
        await page.goto(wp.adminUrl + settingsPath);
        last = (await page.textContent('#calendar-gateway-last')) ?? '';
        return last;
      };
      await expect.poll(lastShown, { timeout: guard(15_000), interval: 500 }).toMatch(/\(\d+ changes?\)/);
      expect(last).toContain(`${gw.url}/calendar-gateway/v1/notify: accepted (HTTP 202)`);
      const when =
        Date.parse((await page.getAttribute('#calendar-gateway-last time', 'datetime')) ?? '') / 1000;
      expect(when).toBeGreaterThanOrEqual(before);
      // The gateway shows it at once (the notification, not a poll).
      const read = await fetch(`${gw.url}/wp-json/calendar/events/v1/events/${id}`);
      expect(read.status).toBe(200);
    } finally {
      await fetch(`${wp.url}/wp/v2/tribe_events/${id}?force=true`, {
        method: 'DELETE',
        headers: adminAuth(),
      });
    }
  });

  it('is for administrators only', async () => {
    const { page, context } = await session(wp, 'editor');
    const res = await page.goto(wp.adminUrl + settingsPath);
    expect(res?.status()).toBe(403);
    expect(await page.content()).not.toContain('calendar-gateway-url');
    // The save action refuses an editor even with the form's fields.
    const post = await context.request.post(new URL('admin-post.php', wp.adminUrl).href, {
      form: { action: 'calendar_gateway_save', url: 'http://evil.test', secret: 'x'.repeat(20) },
    });
    expect(post.status()).toBe(403);
    expect((await option()).url).not.toContain('evil.test');
  });
});
