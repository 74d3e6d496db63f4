// The API reference page in a real headless Chromium (Debian's), against a demo gateway started as `npm start` does.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newPage } from '../browser.ts';
import { guard } from '../slack.ts';
import { type Server, startDemo } from './demo.ts';

let gw: Server;
let browser: Browser;

beforeAll(async () => {
  gw = await startDemo({ LOG_LEVEL: 'info', DEMO_EVENTS: '60' });
  browser = await launchChromium();
}, guard(120_000));

afterAll(async () => {
  await browser?.close();
  await gw?.stop();
});

describe('the API reference page', () => {
  it('is linked from the namespace root and from the start-up line', async () => {
    const index = (await (await fetch(`${gw.url}/wp-json/calendar/events/v1`)).json()) as {
      _links: { help: Array<{ href: string }> };
    };
    expect(index._links.help[0]!.href).toBe(`${gw.url}/calendar-gateway/v1/reference/`);
    // stdout is not a terminal here: every line is pino JSON, the start-up lines included (one format).
    const lines = gw
      .output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const listening = lines.find((l) => typeof l.reference === 'string');
    expect(listening?.reference).toBe(
      `${gw.url.replace('127.0.0.1', 'localhost')}/calendar-gateway/v1/reference/`,
    );
    expect(lines.find((l) => l.demo === true)?.msg).toMatch(/export DEMO_PASSWORD='[^']+'/);
  });

  it('serves its assets itself and nothing else of the renderer package', async () => {
    const page = await fetch(`${gw.url}/calendar-gateway/v1/reference/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//); // no CDN: every asset is relative
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js']) {
      expect((await fetch(`${gw.url}/calendar-gateway/v1/reference/${asset}`)).status).toBe(200);
    }
    // The package's petstore page is not served.
    expect((await fetch(`${gw.url}/calendar-gateway/v1/reference/swagger-initializer.js`)).status).not.toBe(
      200,
    );
    const bare = await fetch(`${gw.url}/calendar-gateway/v1/reference`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/calendar-gateway/v1/reference/');
  });

  it('forbids framing and sniffing, and lets the page run only its own files', async () => {
    for (const file of ['', 'init.js', 'swagger-ui-bundle.js']) {
      const res = await fetch(`${gw.url}/calendar-gateway/v1/reference/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('x-frame-options'), file).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), file).toBe('nosniff');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, file).toContain("frame-ancestors 'none'");
      expect(csp, file).toContain("script-src 'self'");
      expect(csp, file).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    }
  });

  it('renders every documented route, and a GET tried from the page shows events', {
    timeout: guard(90_000),
  }, async () => {
    const doc = (await (await fetch(`${gw.url}/wp-json/calendar/events/v1/doc`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const page = await newPage(browser);
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(gw.url)) external.push(r.url());
    });
    // The page's Content-Security-Policy must not block anything it needs (Chromium reports each block here).
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) blocked.push(m.text());
    });
    await page.goto(`${gw.url}/calendar-gateway/v1/reference/`);
    await page.locator('.opblock').first().waitFor();
    const shown = await page.locator('.opblock-summary-path').allInnerTexts();
    const expected = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))
        .map(() => path),
    );
    expect(expected.length).toBeGreaterThan(10);
    // Swagger UI breaks long paths with zero-width spaces.
    expect(shown.map((s) => s.replace(/\u200b/g, '').trim()).sort()).toEqual(expected.sort());

    const list = page
      .locator('.opblock-get')
      .filter({ has: page.locator('[data-path="/events"]') })
      .first();
    await list.locator('.opblock-summary').click();
    await list.locator('button.execute').click();
    const body = list.locator('.responses-wrapper .live-responses-table .highlight-code code');
    await body.first().waitFor();
    const text = (await body.first().textContent()) ?? '';
    const answered = JSON.parse(text) as { events: Array<{ id: number; title: string }>; total: number };
    expect(answered.events.length).toBeGreaterThan(0);
    expect(answered.total).toBeGreaterThan(0);
    expect(external).toEqual([]);
    expect(blocked).toEqual([]);
    // The proxied request above (swagger-initializer.js goes to WordPress) printed no Node deprecation warning.
    expect(gw.output()).not.toContain('DEP0060');
    await page.screenshot({
      path: `${process.env.TMPDIR ?? '/tmp'}/calendar-gateway-reference.png`,
      fullPage: false,
    });
  });

  it('creates an event: Authorize with the printed demo password, then Execute the shown example of POST /events (201)', {
    timeout: guard(120_000),
  }, async () => {
    // The password as a reader takes it from the start-up line; the editor account, as the docs recommend.
    const printed = gw.output().match(/export DEMO_PASSWORD='([^']+)'/)?.[1];
    expect(printed).toBeTruthy();
    const doc = (await (await fetch(`${gw.url}/wp-json/calendar/events/v1/doc`)).json()) as {
      paths: Record<string, { post?: { requestBody: { content: Record<string, { example: Json }> } } }>;
    };
    const example = doc.paths['/events']!.post!.requestBody.content['application/json']!.example;
    const page = await newPage(browser);
    const sent: Array<{ type: string | null; auth: string | null; body: string | null }> = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') {
        sent.push({
          type: r.headers()['content-type'] ?? null,
          auth: r.headers().authorization ?? null,
          body: r.postData(),
        });
      }
    });
    await page.goto(`${gw.url}/calendar-gateway/v1/reference/`);
    await page.locator('.opblock').first().waitFor();

    await page.locator('.auth-wrapper button.authorize').click();
    const basic = page.locator('.auth-container').filter({ hasText: 'applicationPassword' });
    await basic.locator('input[type=text]').fill('editor');
    await basic.locator('input[type=password]').fill(printed!);
    await basic.locator('button[type=submit]').click();
    await page.locator('.dialog-ux button.close-modal').click();

    const create = page
      .locator('.opblock-post')
      .filter({ has: page.locator('[data-path="/events"]') })
      .first();
    await create.locator('.opblock-summary').click();
    // The body shown is the document's JSON example, unchanged, and nothing else is offered.
    const editor = create.locator('textarea.body-param__text');
    await editor.waitFor();
    expect(JSON.parse(await editor.inputValue())).toEqual(example);
    expect(await create.locator('.body-param-content-type select option').allInnerTexts()).toEqual([
      'application/json',
    ]);
    await create.locator('button.execute').click();

    const status = create.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('201');
    const answer = create.locator('.live-responses-table .highlight-code code').first();
    const created = JSON.parse((await answer.textContent()) ?? '') as { id: number; title: string };
    expect(created.title).toBe(example.title);
    expect(sent).toEqual([
      { type: 'application/json', auth: `Basic ${btoa(`editor:${printed}`)}`, body: expect.any(String) },
    ]);

    // The event exists: anyone reads it, with the venue and organizer the example nested.
    const read = await fetch(`${gw.url}/wp-json/calendar/events/v1/events/${created.id}`);
    expect(read.status).toBe(200);
    const event = (await read.json()) as Json;
    expect(event).toMatchObject({
      title: example.title,
      start_date: example.start_date,
      venue: { venue: (example.venue as Json).venue },
      organizer: [{ organizer: ((example.organizer as Json[])[0] as Json).organizer }],
    });
  });
});

type Json = Record<string, unknown>;
