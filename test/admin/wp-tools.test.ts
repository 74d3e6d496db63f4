// wp.sh's login lines and --gateway, and the installable plugin zip, against real WordPress sites in Chromium.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureWordPress,
  parseStartOutput,
  stopWordPress,
  type WordPressUpstream,
} from '../../wordpress/upstream.ts';
import { adminStateDir, ownSitePort } from '../setup/sites.ts';
import { guard } from '../slack.ts';
import { AdminBrowser, basic, gatewayOn, root, run, site } from './wp-kit.ts';

const ab = new AdminBrowser();
beforeAll(() => ab.open(), guard(120_000));
afterAll(() => ab.close());
const login = (wp: WordPressUpstream, user: string) => ab.login(wp, user);

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
      expect(Date.now() - t0).toBeLessThan(guard(2000));
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
      port: await ownSitePort(stateDir, 305),
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
  }, guard(180_000));

  afterAll(async () => {
    await stopWordPress(stateDir);
    rmSync(stateDir, { recursive: true, force: true });
  }, guard(120_000));

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
