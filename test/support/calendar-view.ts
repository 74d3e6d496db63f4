// Reading <calendar-gateway-view> in a real browser, and what it should show computed apart from it (from /events,
// with luxon): the tests of test/e2e/calendar-element.test.ts compare the two.
import { DateTime } from 'luxon';
import type { Locator, Page } from 'playwright-core';

export interface ApiEvent {
  id: number;
  title: string;
  all_day?: boolean;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
}

/** Every event of a list query, page after page (the API's largest page). */
export async function allEvents(base: string, query: Record<string, string>): Promise<ApiEvent[]> {
  const out: ApiEvent[] = [];
  for (let page = 1; ; page++) {
    const q = new URLSearchParams({ ...query, per_page: '50', page: String(page) });
    const res = await fetch(`${base}/wp-json/calendar/events/v1/events?${q}`);
    if (!res.ok) throw new Error(`GET /events ${q}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { events: ApiEvent[]; total_pages: number };
    out.push(...body.events);
    if (page >= body.total_pages) return out;
  }
}

/** The days an event covers in `zone`: all-day ones by their dates, timed ones by their UTC instants. */
export function daysOf(e: ApiEvent, zone: string): string[] {
  let first: DateTime;
  let last: DateTime;
  if (e.all_day) {
    first = DateTime.fromISO(e.start_date.slice(0, 10), { zone: 'UTC' });
    last = DateTime.fromISO(e.end_date.slice(0, 10), { zone: 'UTC' });
  } else {
    first = DateTime.fromSQL(e.utc_start_date, { zone: 'UTC' }).setZone(zone).startOf('day');
    const end = DateTime.fromSQL(e.utc_end_date, { zone: 'UTC' }).setZone(zone);
    last = end.startOf('day');
    // An end at midnight does not cover that day.
    if (+end === +last && +last > +first) last = last.minus({ days: 1 });
  }
  const days: string[] = [];
  for (let d = first.startOf('day'); d <= last; d = d.plus({ days: 1 })) days.push(d.toISODate()!);
  return days;
}

/** What a month should show: the ids of the events on each visible day. */
export function expectedMonth(events: ApiEvent[], days: string[], zone: string): Map<string, Set<number>> {
  const map = new Map(days.map((d) => [d, new Set<number>()]));
  for (const e of events) for (const d of daysOf(e, zone)) map.get(d)?.add(e.id);
  return map;
}

/** Waits until the element has loaded (not busy, no error). */
export async function loaded(page: Page): Promise<void> {
  await page.locator('calendar-gateway-view .calendar[aria-busy="false"]').waitFor();
  const error = page.locator('calendar-gateway-view [role="alert"]');
  if (await error.count()) throw new Error(`the element shows an error: ${await error.textContent()}`);
}

/**
 * What the month grid shows: the ids on each day. Timed events are in their day's cell, bars cover their row's days
 * from their first to their last day, and a day with "+N more" is read from the day's dialog (every event of it).
 */
export async function shownMonth(page: Page): Promise<Map<string, Set<number>>> {
  const read = await page.evaluate(() => {
    const root = document.querySelector('calendar-gateway-view')!.shadowRoot!;
    const out: Array<{ day: string; ids: number[]; more: boolean }> = [];
    for (const row of Array.from(root.querySelectorAll<HTMLElement>('.month [role="row"].week'))) {
      const cells = Array.from(row.querySelectorAll<HTMLElement>('[role="gridcell"]'));
      const days = cells.map((c) => c.dataset.day!);
      const bars = Array.from(row.querySelectorAll<HTMLElement>('.bar')).map((b) => ({
        id: Number(b.dataset.eventId),
        first: b.dataset.first!,
        last: b.dataset.last!,
      }));
      for (const [i, cell] of cells.entries()) {
        const day = days[i]!;
        const ids = Array.from(cell.querySelectorAll<HTMLElement>(':scope > .event')).map((b) =>
          Number(b.dataset.eventId),
        );
        for (const b of bars) if (b.first <= day && b.last >= day) ids.push(b.id);
        out.push({ day, ids, more: cell.querySelector('.more') !== null });
      }
    }
    return out;
  });
  const map = new Map<string, Set<number>>();
  for (const { day, ids, more } of read) {
    if (!more) {
      map.set(day, new Set(ids));
      continue;
    }
    await page.locator(`calendar-gateway-view [data-day="${day}"] .more`).click();
    const list = page.locator('calendar-gateway-view dialog[open] .day-list [data-event-id]');
    await list.first().waitFor();
    const all = await list.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.eventId)));
    map.set(day, new Set(all));
    await page.keyboard.press('Escape');
    await page
      .locator('calendar-gateway-view dialog[open]')
      .waitFor({ state: 'detached' })
      .catch(() => {});
    await page.locator('calendar-gateway-view dialog:not([open])').waitFor({ state: 'attached' });
  }
  return map;
}

/** A node's text, trimmed (lit's templates leave white space around it). */
export const text = async (l: Locator): Promise<string> =>
  ((await l.textContent()) ?? '').replace(/\s+/g, ' ').trim();

/** The element's focused node inside its shadow root: role, day and event id. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const a = document.querySelector('calendar-gateway-view')?.shadowRoot
      ?.activeElement as HTMLElement | null;
    return {
      role: a?.getAttribute('role') ?? a?.tagName.toLowerCase(),
      day: a?.dataset.day,
      id: a?.dataset.eventId,
    };
  });

/** The next change of UTC offset in `zone` after `from`: the local day it happens on. */
export function nextOffsetChange(zone: string, from: DateTime): DateTime {
  let day = from.setZone(zone).startOf('day');
  for (let i = 0; i < 400; i++) {
    const next = day.plus({ days: 1 });
    if (next.endOf('day').offset !== day.endOf('day').offset) return next;
    day = next;
  }
  throw new Error(`${zone} has no offset change within 400 days`);
}
