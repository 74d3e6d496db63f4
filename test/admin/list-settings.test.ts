// The events list and Settings → Calendar gateway in wp-admin, in Debian's headless Chromium, against real WordPress
// sites of both mappings; the login lines of wp.sh, its --gateway, and the installable plugin zip.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { unzipSync } from 'fflate';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type Server, startChild } from '../../bench/lib.ts';
import {
  ensureWordPress,
  parseStartOutput,
  stopWordPress,
  type WordPressUpstream,
} from '../../wordpress/upstream.ts';
import { adminSites, adminStateDir, portFor } from '../setup/sites.ts';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const images = join(root, 'docs/images');

/** This project's site of a mapping (started with the run's sites by test/setup/sites.ts; reused, quick). */
const site = async (name: 'tec' | 'custom') => {
  const s = adminSites.find((x) => x.name === name)!;
  const stateDir = adminStateDir(name);
  return ensureWordPress({ mapping: s.mapping, stateDir, port: await portFor(stateDir, s.port) });
};

/** A gateway on `wp` as the editor, taking change notifications signed with `secret`. */
const gatewayOn = (
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

interface MappingFile {
  event: { postType: string; restBase: string; fields: Record<string, { meta?: string }> };
  venue: { restBase: string };
}
const mappingOf = (name: string): MappingFile =>
  JSON.parse(readFileSync(join(root, `mappings/${name}.json`), 'utf8')) as MappingFile;

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

let browser: Browser;

beforeAll(async () => {
  const executablePath = execFileSync('bash', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const sessions = new Map<string, Promise<{ context: BrowserContext; page: Page }>>();
/** A user's logged-in browser context on a site, made once (closed with the browser). */
const session = (wp: WordPressUpstream, user: string) => {
  const key = `${wp.adminUrl} ${user}`;
  if (!sessions.has(key)) sessions.set(key, login(wp, user));
  return sessions.get(key)!;
};

/** A browser context logged in through wp-login.php with the printed login password. */
async function login(wp: WordPressUpstream, user: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(new URL('../wp-login.php', wp.adminUrl).href);
  await page.fill('#user_login', user);
  await page.fill('#user_pass', wp.loginPassword);
  await Promise.all([page.waitForURL(/\/wp-admin\//), page.click('#wp-submit')]);
  return { context, page };
}

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
  }, 180_000);

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
  }, 180_000);

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
      await page.goto(wp.adminUrl + settingsPath);
      const last = (await page.textContent('#calendar-gateway-last')) ?? '';
      expect(last).toMatch(/\(\d+ changes?\)/);
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

describe('wp.sh start', () => {
  it('prints the admin URL, the login password that wp-login.php accepts for every user, and the editor for the gateway', async () => {
    const stateDir = resolve(adminStateDir('tec'));
    const { stdout } = await run('bash', [join(root, 'wordpress/wp.sh'), 'status'], {
      env: { ...process.env, WP_STATE_DIR: stateDir },
    });
    const lines = parseStartOutput(stdout);
    const wp = await site('tec');
    expect(lines.auth).toBe(`editor:${wp.usersPassword}`);
    expect(lines.adminUrl).toBe(`${new URL(wp.url).origin}/wp-admin/`);
    expect(lines.loginPassword).toBe(wp.loginPassword);
    expect(lines.loginPassword).not.toBe(wp.usersPassword);
    for (const user of ['admin', 'editor', 'author', 'contributor', 'subscriber']) {
      const res = await fetch(new URL('../wp-login.php', lines.adminUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Cookie: 'wordpress_test_cookie=WP%20Cookie%20check',
        },
        body: new URLSearchParams({ log: user, pwd: lines.loginPassword, testcookie: '1' }),
      });
      expect(res.status, user).toBe(302);
      expect(
        res.headers.getSetCookie().some((c) => c.startsWith('wordpress_logged_in_')),
        user,
      ).toBe(true);
    }
    const wrong = await fetch(new URL('../wp-login.php', lines.adminUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ log: 'editor', pwd: wp.usersPassword }),
    });
    expect(wrong.status).toBe(200); // the application password is still refused there
  });

  it('--gateway points the change notifications at a gateway, which then shows an editor publish at once', async () => {
    const secret = 'wp-sh-gateway-secret-0123456789';
    const wp = await site('tec');
    const gw = await gatewayOn(wp, secret, { POLL_INTERVAL_MS: '600000' });
    const stateDir = resolve(adminStateDir('tec'));
    let id = 0;
    try {
      const { stdout } = await run(
        'bash',
        [join(root, 'wordpress/wp.sh'), 'start', '--port', new URL(wp.url).port, '--gateway', gw.url],
        { env: { ...process.env, WP_STATE_DIR: stateDir, WEBHOOK_SECRET: secret } },
      );
      const lines = parseStartOutput(stdout);
      expect(lines.webhook).toEqual({ url: `${gw.url}/calendar-gateway/v1/notify`, secret });
      // A list read before the publish is cached; the notification must drop it.
      const listUrl = `${gw.url}/wp-json/calendar/events/v1/events?search=wp-sh-gateway&start_date=2031-05-01&end_date=2031-07-01`;
      expect(((await (await fetch(listUrl)).json()) as { total: number }).total).toBe(0);
      const res = await fetch(`${wp.url}/wp/v2/tribe_events`, {
        method: 'POST',
        headers: { Authorization: basic('editor', wp.usersPassword), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: 'wp-sh-gateway publish',
          status: 'publish',
          meta: {
            _EventStartDate: '2031-06-01 19:00:00',
            _EventEndDate: '2031-06-01 21:00:00',
            _EventStartDateUTC: '2031-06-01 19:00:00',
            _EventEndDateUTC: '2031-06-01 21:00:00',
          },
        }),
      });
      expect(res.status).toBe(201);
      id = ((await res.json()) as { id: number }).id;
      const t0 = Date.now();
      let total = 0;
      while (Date.now() - t0 < 5000 && total === 0) {
        total = ((await (await fetch(listUrl)).json()) as { total: number }).total;
        if (!total) await new Promise((r) => setTimeout(r, 100));
      }
      expect(total).toBe(1);
      // The list was cached and the gateway polls every 10 minutes here: only the notification explains this.
      expect(Date.now() - t0).toBeLessThan(2000);
    } finally {
      if (id) {
        await fetch(`${wp.url}/wp/v2/tribe_events/${id}?force=true`, {
          method: 'DELETE',
          headers: { Authorization: basic('admin', wp.usersPassword) },
        });
      }
      await fetch(`${wp.url}/wp/v2/settings`, {
        method: 'POST',
        headers: { Authorization: basic('admin', wp.usersPassword), 'Content-Type': 'application/json' },
        body: JSON.stringify({ calendar_gateway_webhook: { url: '', secret: '' } }),
      });
      rmSync(join(stateDir, 'webhook'), { force: true });
      await gw.stop();
    }
  });
});

describe('npm run companion:zip', () => {
  const stateDir = resolve('.wordpress/admin-zip');
  let wp: WordPressUpstream;

  beforeAll(async () => {
    // A plain site: the plugin comes only from the zip (no mu-plugin, no CALENDAR_GATEWAY_MAPPING).
    wp = await ensureWordPress({
      mapping: 'mappings/tec.json',
      stateDir,
      port: await freePort(),
      seed: false,
    });
    const siteDir = join(stateDir, 'site');
    rmSync(join(siteDir, 'wp-content/mu-plugins'), { recursive: true, force: true });
    rmSync(join(siteDir, 'wp-content/plugins/calendar-gateway-companion'), { recursive: true, force: true });
    const config = readFileSync(join(siteDir, 'wp-config.php'), 'utf8');
    writeFileSync(
      join(siteDir, 'wp-config.php'),
      config.replace(/^define\('CALENDAR_GATEWAY_MAPPING'.*\n/m, ''),
    );
  }, 180_000);

  afterAll(async () => {
    await stopWordPress(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  }, 120_000);

  it('builds a zip that installs through Plugins → Add New → Upload and serves the chosen bundled mapping', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'companion:zip'], { cwd: root });
    const zip = stdout.trim().split('\n').at(-1)!;
    expect(zip).toMatch(/dist\/calendar-gateway-companion-[\d.]+\.zip$/);
    const files = unzipSync(readFileSync(zip));
    const text = (name: string) => new TextDecoder().decode(files[`calendar-gateway-companion/${name}`]);
    const version = /Version:\s*(\S+)/.exec(text('calendar-gateway-companion.php'))?.[1];
    expect(version).toBeTruthy();
    expect(zip.endsWith(`-${version}.zip`)).toBe(true);
    expect(text('readme.txt')).toMatch(new RegExp(`^Stable tag: ${version}$`, 'm'));
    expect(Object.keys(files).sort()).toEqual(
      expect.arrayContaining([
        'calendar-gateway-companion/admin/list.php',
        'calendar-gateway-companion/admin/settings.php',
        'calendar-gateway-companion/mappings/custom.json',
        'calendar-gateway-companion/mappings/tec.json',
      ]),
    );
    expect(Object.keys(files).every((f) => f.startsWith('calendar-gateway-companion/'))).toBe(true);

    const types = async () =>
      Object.keys((await (await fetch(`${wp.url}/wp/v2/types`)).json()) as Record<string, unknown>);
    expect(await types()).not.toContain('tribe_events');
    const { context, page } = await login(wp, 'admin');
    try {
      await page.goto(`${wp.adminUrl}plugin-install.php?tab=upload`);
      await page.setInputFiles('#pluginzip', zip);
      await Promise.all([
        page.waitForURL(/update\.php\?action=upload-plugin/),
        page.click('#install-plugin-submit'),
      ]);
      expect(await page.content()).toContain('Plugin installed successfully.');
      await Promise.all([
        page.waitForURL(/plugins\.php/),
        page.click('a.button-primary:has-text("Activate Plugin")'),
      ]);
      const row = page.locator('tr[data-slug="calendar-gateway-companion"]');
      expect(await row.getAttribute('class')).toContain('active');
      expect(await row.textContent()).toContain(`Version ${version}`);
      // Without CALENDAR_GATEWAY_MAPPING it serves TEC's mapping from the zip; the screen switches to another.
      expect(await types()).toContain('tribe_events');
      await page.goto(`${wp.adminUrl}options-general.php?page=calendar-gateway`);
      await page.selectOption('#calendar-gateway-mapping', 'custom');
      await Promise.all([page.waitForURL(/calendar-gateway=saved/), page.click('#submit')]);
      const after = await types();
      expect(after).toContain('event');
      expect(after).not.toContain('tribe_events');
    } finally {
      await context.close();
    }
  });
});
