// The Repeat section of the Event details panel and the events list's "Repeats …" line, in the real block editor
// (Debian's Chromium, the real WordPress) on both mappings: the stored `recurrence` row is byte for byte the
// gateway's canonical text for the same rule (src/recurrence/rule.ts), and the words are the gateway's.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { canonicalText, parseRecurrence, type SeriesStart } from '../../src/recurrence/rule.ts';
import { describeRule } from '../../src/recurrence/text.ts';
import {
  type Admin,
  editedPostId,
  launchChromium,
  logIn,
  loginPassword,
  openAdmin,
  openEditor,
  publish,
  storedRows,
  typeTitle,
  update,
} from './support.ts';

interface EditorGlobal {
  wp: { data: { select(store: string): { isEditedPostDirty(): boolean } } };
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** The gateway's stored text and words for a rule sent to its API. */
function gateway(api: { rrule: string; exdate?: string[] }, start: SeriesStart) {
  const parsed = parseRecurrence(api, start, { maxCount: 1000 });
  if (!parsed.ok) throw new Error(parsed.reason);
  return { text: canonicalText(parsed.rule), words: describeRule(parsed.rule, start) };
}

describe.each(inject('adminSites'))('the Repeat section on the $name mapping', (site) => {
  let a: Admin;
  let page: Page;
  const tag = Date.now().toString(36);
  let key: string;
  /** The post's `recurrence` rows in the database, and its value as wp/v2 shows it. */
  const stored = async (id: number) => {
    const post = await a.wp<{ meta: Record<string, unknown> }>(
      'admin',
      `/wp/v2/${a.mapping.event.restBase}/${id}?context=edit`,
    );
    return { rows: (await storedRows(site, id)).meta[key] ?? [], rest: post.meta[key] };
  };

  beforeAll(async () => {
    a = await openAdmin(site);
    key = (a.mapping.event.fields as Record<string, { meta?: string }>).recurrence!.meta!;
    page = await logIn(browser, site, 'editor', await loginPassword(site));
  });
  afterAll(async () => {
    await page?.context().close();
    await a?.close();
  });

  /** A new event from the given local start in New York, its Event details panel open. */
  async function newSeries(title: string, start: string, end: string): Promise<Locator> {
    await openEditor(page, a, 'event');
    const panel = page.locator('.calendar-gateway-event');
    await typeTitle(page, title);
    await panel.getByLabel('Start', { exact: true }).fill(start);
    await panel.getByLabel('End', { exact: true }).fill(end);
    await panel.getByLabel('Time zone').selectOption('America/New_York');
    return panel;
  }

  async function exclude(panel: Locator, date: string) {
    await panel.getByLabel('Excluded date').fill(date);
    await panel.getByRole('button', { name: 'Exclude', exact: true }).click();
  }

  let seriesId = 0;
  const NY: SeriesStart = { start: '2026-10-06 19:00:00', timezone: 'America/New_York', allDay: false };
  const weekly = gateway({ rrule: 'FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630', exdate: ['20261224'] }, NY);

  it('weekly on Tuesday and Thursday, until a date, one date excluded: the stored row is the gateway’s text, the words its words', async () => {
    const panel = await newSeries(`Choir ${tag}`, '2026-10-06T19:00', '2026-10-06T21:00');
    await panel.getByLabel('Repeat', { exact: true }).selectOption('WEEKLY');
    // The start's weekday is chosen already; add Thursday.
    expect(await panel.getByLabel('Tue', { exact: true }).isChecked()).toBe(true);
    await panel.getByLabel('Thu', { exact: true }).check();
    await panel.getByLabel('Ends', { exact: true }).selectOption('on');
    await panel.getByLabel('End date', { exact: true }).fill('2027-06-30');
    await exclude(panel, '2026-12-24');
    await expect.poll(() => panel.locator('.calendar-gateway-repeat-words').textContent()).toBe(weekly.words);
    expect(weekly.words).toBe('Every Tuesday and Thursday until 30 June 2027, except 24 December 2026');
    seriesId = await editedPostId(page);
    await publish(page, a, 'event');

    // One row, the gateway's bytes: local 19:00 in EXDATE, UNTIL at 23:59:59 New York (EDT) in UTC.
    expect(weekly.text).toBe('RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270701T035959Z\nEXDATE:20261224T190000');
    expect(await stored(seriesId)).toEqual({ rows: [weekly.text], rest: weekly.text });

    // Opened again, the panel shows the same choices and changes nothing.
    await openEditor(page, a, 'event', seriesId);
    const again = page.locator('.calendar-gateway-event');
    await expect.poll(() => again.getByLabel('Repeat', { exact: true }).inputValue()).toBe('WEEKLY');
    expect(await again.getByLabel('Thu', { exact: true }).isChecked()).toBe(true);
    expect(await again.getByLabel('Wed', { exact: true }).isChecked()).toBe(false);
    expect(await again.getByLabel('End date', { exact: true }).inputValue()).toBe('2027-06-30');
    expect(await again.locator('.calendar-gateway-repeat-exdates li').allTextContents()).toEqual([
      '2026-12-24 Remove',
    ]);
    expect(await again.locator('.calendar-gateway-repeat-words').textContent()).toBe(weekly.words);
    expect(
      await page.evaluate(() =>
        (window as unknown as EditorGlobal).wp.data.select('core/editor').isEditedPostDirty(),
      ),
    ).toBe(false);
  });

  it('a weekly New York series across the March DST change keeps 19:00 local; moving it to London moves its UNTIL; it cannot stop repeating', async () => {
    const start: SeriesStart = { start: '2027-03-02 19:00:00', timezone: 'America/New_York', allDay: false };
    const panel = await newSeries(`Spring class ${tag}`, '2027-03-02T19:00', '2027-03-02T20:30');
    await panel.getByLabel('Repeat', { exact: true }).selectOption('WEEKLY');
    await panel.getByLabel('Every how many weeks').fill('2');
    await panel.getByLabel('Ends', { exact: true }).selectOption('on');
    await panel.getByLabel('End date', { exact: true }).fill('2027-04-30');
    // Before (EST) and after (EDT) the change on 14 March: both at 19:00 local.
    await exclude(panel, '2027-03-16');
    await exclude(panel, '2027-03-02');
    const want = gateway(
      { rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20270430', exdate: ['20270302', '20270316'] },
      start,
    );
    expect(want.text).toBe(
      'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20270501T035959Z\nEXDATE:20270302T190000,20270316T190000',
    );
    await expect.poll(() => panel.locator('.calendar-gateway-repeat-words').textContent()).toBe(want.words);
    const id = await editedPostId(page);
    await publish(page, a, 'event');
    expect(await stored(id)).toEqual({ rows: [want.text], rest: want.text });

    // The zone is part of the rule's reading: UNTIL is the end of 30 April in London now (BST), the dates stay local.
    await panel.getByLabel('Time zone').selectOption('Europe/London');
    const london = gateway(
      { rrule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20270430', exdate: ['20270302', '20270316'] },
      { ...start, timezone: 'Europe/London' },
    );
    expect(london.text).toContain('UNTIL=20270430T225959Z');
    await update(page, a, 'event');
    expect(await stored(id)).toEqual({ rows: [london.text], rest: london.text });

    // A saved series keeps its rule, as the gateway's update refuses `recurrence: null` on a series.
    expect(await panel.locator('option[value="NONE"]').isDisabled()).toBe(true);
  });

  it('an all-day series on the last Friday of the month, six times: dates without times, as the gateway stores them', async () => {
    const start: SeriesStart = { start: '2027-01-29 00:00:00', timezone: 'America/New_York', allDay: true };
    const panel = await newSeries(`Market ${tag}`, '2027-01-29T10:00', '2027-01-29T16:00');
    await panel.getByLabel('All day', { exact: true }).check();
    await panel.getByLabel('Repeat', { exact: true }).selectOption('MONTHLY');
    // 29 January 2027 is the fifth and last Friday: "the last" is offered, a "fifth" is not.
    const on = panel.getByLabel('On', { exact: true });
    expect(await on.locator('option').allTextContents()).toEqual(['The same date', 'The last Friday']);
    await on.selectOption('last');
    await panel.getByLabel('Ends', { exact: true }).selectOption('after');
    await panel.getByLabel('Times', { exact: true }).fill('6');
    await exclude(panel, '2027-04-30');
    const want = gateway({ rrule: 'FREQ=MONTHLY;BYDAY=-1FR;COUNT=6', exdate: ['20270430'] }, start);
    expect(want.text).toBe('RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=6\nEXDATE:20270430');
    expect(want.words).toBe('Monthly on the last Friday, 6 times, except 30 April 2027');
    await expect.poll(() => panel.locator('.calendar-gateway-repeat-words').textContent()).toBe(want.words);
    const id = await editedPostId(page);
    await publish(page, a, 'event');
    expect(await stored(id)).toEqual({ rows: [want.text], rest: want.text });
  });

  it('the events list says "Repeats …" in the gateway’s words for a series, nothing for a one-off', async () => {
    expect(seriesId).toBeGreaterThan(0);
    const oneOff = (
      await a.wp<{ id: number }>('admin', `/wp/v2/${a.mapping.event.restBase}`, {
        body: { title: `One-off ${tag}`, status: 'publish' },
      })
    ).id;
    await page.goto(`${site.origin}/wp-admin/edit.php?post_type=${a.mapping.event.postType}`);
    const repeats = page.locator(`#post-${seriesId} .calendar-gateway-repeats`);
    const words = `${weekly.words.charAt(0).toLowerCase()}${weekly.words.slice(1)}`;
    await expect.poll(() => repeats.textContent()).toBe(`Repeats ${words}`);
    expect(await page.locator(`#post-${oneOff}`).count()).toBe(1);
    expect(await page.locator(`#post-${oneOff} .calendar-gateway-repeats`).count()).toBe(0);
  });
});
