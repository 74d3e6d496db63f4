// Recurring events read back (issue 31): a series and an override stored as RECURRENCE.md says (written straight
// through wp/v2, as the Repeat panel or another writer would), their answers' recurrence fields, and the feed: the
// series once with its rule and the override as a RECURRENCE-ID VEVENT, which ical.js expands to the model's
// occurrences at the same instants. Runs against the mock and the real WordPress.
import ICAL from 'ical.js';
import ical from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Expander, readRuleText } from '../../src/recurrence/expand.ts';
import { msOfUtcWall, occurrencesOf } from '../../src/recurrence/occurrences.ts';
import { expandWithIcalJs } from '../../src/recurrence/test-support.ts';
import { call, openTarget, type Target } from '../harness.ts';
import { NS } from './cache-support.ts';
import { type EventRecord, editUpstream, Fixtures, type Json, token } from './fixtures.ts';

const tok = token();
let t: Target;
let fx: Fixtures;
let series: EventRecord;
let override: EventRecord;
/** Weekly on Tuesdays at 19:00 New York, across the November DST change, one date excluded. */
const RULE = 'RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20351218T235959Z\nEXDATE:20351113T190000';
const metaKey = (field: string) =>
  (t.mapping.event.fields as Record<string, { meta?: string }>)[field]?.meta as string;

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  const made = await fx.event({
    title: `Weekly class ${tok}`,
    start_date: '2035-10-23 19:00:00',
    end_date: '2035-10-23 21:00:00',
    timezone: 'America/New_York',
  });
  await editUpstream(t, made.id, { meta: { [metaKey('recurrence')]: RULE } });
  // The 6 November class moved to Wednesday 20:00; it replaces 2035-11-06 19:00 EST (00:00 UTC on the 7th).
  const moved = await fx.event({
    title: `Weekly class moved ${tok}`,
    start_date: '2035-11-07 20:00:00',
    end_date: '2035-11-07 22:00:00',
    timezone: 'America/New_York',
  });
  await editUpstream(t, moved.id, {
    meta: { [metaKey('series_parent')]: made.id, [metaKey('recurrence_id')]: '2035-11-07 00:00:00' },
  });
  series = (await call<EventRecord>(t, 'GET', `/events/${made.id}`)).body;
  override = (await call<EventRecord>(t, 'GET', `/events/${moved.id}`)).body;
});

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

describe('recurring events read back', () => {
  it('answers a series post with its rule, in words, as its own series', () => {
    expect(series.is_recurring).toBe(true);
    expect(series.series_id).toBe(series.id);
    expect(series.original_start_utc).toBe('2035-10-23 23:00:00');
    expect(series.recurrence).toMatchObject({
      rrule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20351218T235959Z',
      rdate: [],
      exdate: ['20351113T190000'],
    });
    expect((series.recurrence as Json).text).toMatch(/Tuesday/);
  });

  it('answers an override with its series and the original start it replaces', () => {
    expect([override.is_recurring, override.series_id, override.original_start_utc]).toEqual([
      true,
      series.id,
      '2035-11-07 00:00:00',
    ]);
  });

  it('answers a one-off as not recurring', async () => {
    const one = await fx.event({
      title: `One-off ${tok}`,
      start_date: '2035-10-24 10:00:00',
      end_date: '2035-10-24 11:00:00',
    });
    expect([one.is_recurring, one.series_id, one.original_start_utc, one.recurrence]).toEqual([
      false,
      null,
      null,
      null,
    ]);
  });

  it('sends the series once in the feed, the override as its RECURRENCE-ID, and ical.js expands it to the occurrences', async () => {
    const query = `start_date=2035-10-20%2000:00:00&end_date=2035-12-31%2023:59:59&search=${tok}`;
    const res = await fetch(`${t.gateway.url}${NS}/events.ics?${query}`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const vevents = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent');
    const ofSeries = vevents.filter((v) =>
      String(v.getFirstPropertyValue('uid')).startsWith(`event-${series.id}@`),
    );
    expect(ofSeries).toHaveLength(2);
    expect(text).toContain('RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20351218T235959Z\r\n');
    expect(text).toContain('EXDATE;TZID=America/New_York:20351113T190000\r\n');
    expect(text).toContain('RECURRENCE-ID;TZID=America/New_York:20351106T190000\r\n');

    const expander = Expander.of(readRuleText(RULE)!, {
      start: '2035-10-23 19:00:00',
      timezone: 'America/New_York',
      allDay: false,
    })!;
    const from = Date.UTC(2035, 9, 20);
    const to = Date.UTC(2035, 11, 31, 23, 59, 59);
    const want = occurrencesOf(
      series.id,
      expander,
      2 * 3_600_000,
      [
        {
          postId: override.id,
          originalStartMs: msOfUtcWall('2035-11-07 00:00:00'),
          startMs: msOfUtcWall(String(override.utc_start_date)),
          endMs: msOfUtcWall(String(override.utc_end_date)),
          canceled: false,
        },
      ],
      from,
      to,
    ).map((o) => new Date(o.startMs).toISOString());
    const got = expandWithIcalJs(text, new Date(from), new Date(to))
      .filter((o) => o.uid.startsWith(`event-${series.id}@`))
      .map((o) => o.start);
    expect(got).toEqual(want);
    // Tuesdays 19:00 local on both sides of the DST change (4 November); 13 November excluded; 6 November moved to
    // the 7th, 20:00; the 18 December one is after UNTIL (18:59:59 local).
    expect(got).toContain('2035-10-23T23:00:00.000Z');
    expect(got).toContain('2035-10-30T23:00:00.000Z');
    expect(got).toContain('2035-11-21T00:00:00.000Z');
    expect(got).toContain('2035-11-08T01:00:00.000Z');
    expect(got).not.toContain('2035-11-14T00:00:00.000Z');
    expect(got).not.toContain('2035-11-07T00:00:00.000Z');
    expect(got).toHaveLength(7);
    // node-ical reads the same feed: one series with its rule, the override among its recurrences.
    const parsed = Object.values(ical.sync.parseICS(text)) as Array<Json & { recurrences?: Json }>;
    const master = parsed.find(
      (c) => c.type === 'VEVENT' && c.uid === `event-${series.id}@${new URL(String(series.url)).host}`,
    );
    expect(master?.rrule).toBeDefined();
    expect(new Set(Object.values(master?.recurrences ?? {})).size).toBe(1);
  });

  it('answers an override’s own .ics as that occurrence alone, with its series’ UID and RECURRENCE-ID', async () => {
    const res = await fetch(`${t.gateway.url}${NS}/events/${override.id}.ics`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const vevent = text.slice(text.indexOf('BEGIN:VEVENT'));
    expect(vevent).toContain(`UID:event-${series.id}@`);
    expect(vevent).toContain('RECURRENCE-ID;TZID=America/New_York:20351106T190000\r\n');
    expect(vevent).toContain('DTSTART;TZID=America/New_York:20351107T200000\r\n');
    expect(vevent).not.toContain('RRULE');
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  });

  it('keeps a draft override from the public: the feed has the series’ own occurrence there', async () => {
    await editUpstream(t, override.id, { status: 'draft' });
    const query = `start_date=2035-10-20%2000:00:00&end_date=2035-12-31%2023:59:59&search=${tok}`;
    const text = await (await fetch(`${t.gateway.url}${NS}/events.ics?${query}`)).text();
    expect(text).not.toContain('RECURRENCE-ID');
    const got = expandWithIcalJs(text, new Date(Date.UTC(2035, 9, 20)), new Date(Date.UTC(2035, 11, 31)))
      .filter((o) => o.uid.startsWith(`event-${series.id}@`))
      .map((o) => o.start);
    expect(got).toContain('2035-11-07T00:00:00.000Z');
    expect(got).not.toContain('2035-11-08T01:00:00.000Z');
    expect(got).toHaveLength(7);
  });
});
