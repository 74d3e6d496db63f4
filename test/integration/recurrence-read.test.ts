// Recurring events read back (issue 31): a series and an override stored as RECURRENCE.md says (written straight
// through wp/v2, as the Repeat panel or another writer would), their answers' recurrence fields, and the feed: the
// series once with its rule and the override as a RECURRENCE-ID VEVENT, which ical.js expands to the model's
// occurrences at the same instants. Runs against the mock and the real WordPress.
import ICAL from 'ical.js';
import ical from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { msOfUtcWall } from '../../src/dates/utc-wall.ts';
import { Expander, readRuleText } from '../../src/recurrence/expand.ts';
import { occurrenceId } from '../../src/recurrence/ids.ts';
import { occurrencesOf } from '../../src/recurrence/occurrences.ts';
import { expandWithIcalJs } from '../../src/recurrence/test-support.ts';
import { call, eventually, openTarget, type Target } from '../harness.ts';
import { NS } from './cache-support.ts';
import { type EventRecord, editUpstream, expectError, Fixtures, type Json, token } from './fixtures.ts';

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
});

/** The occurrence id of the series' occurrence whose original start is this UTC wall time. */
const occ = (seriesId: number, utc: string) =>
  occurrenceId({ seriesId, originalStartMs: msOfUtcWall(utc) }) as number;

describe('reading one occurrence by its id', () => {
  it('answers a plain occurrence with the series’ fields at its own dates, on both roots', async () => {
    // 30 October 2035, 19:00 EDT (before the DST change) and 20 November, 19:00 EST (after it).
    for (const [utc, local, abbr] of [
      ['2035-10-30 23:00:00', '2035-10-30', 'EDT'],
      ['2035-11-21 00:00:00', '2035-11-20', 'EST'],
    ] as const) {
      const id = occ(series.id, utc);
      const res = await call<EventRecord>(t, 'GET', `/events/${id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const e = res.body;
      expect(e.id).toBe(id);
      expect(e.title).toBe(series.title);
      expect(e.rest_url).toBe(`${t.api}/events/${id}`);
      expect([e.start_date, e.end_date, e.utc_start_date]).toEqual([
        `${local} 19:00:00`,
        `${local} 21:00:00`,
        utc,
      ]);
      expect(e.timezone_abbr).toBe(abbr);
      expect(e.start_date_details).toMatchObject({ year: '2035', day: local.slice(8), hour: '19' });
      expect(e.utc_start_date_details).toMatchObject({ hour: utc.slice(11, 13) });
      expect([e.is_recurring, e.series_id, e.original_start_utc]).toEqual([true, series.id, utc]);
      expect(e.recurrence).toEqual(series.recurrence);
      // TEC's keys first, in TEC's order: the same key order as the series' own answer.
      expect(Object.keys(e)).toEqual(Object.keys(series));
      const es = await fetch(`${t.gateway.url}/es/wp-json/calendar/events/v1/events/${id}`);
      const body = (await es.json()) as EventRecord;
      expect(es.status, JSON.stringify(body)).toBe(200);
      expect([body.id, body.start_date, body.series_id]).toEqual([id, e.start_date, series.id]);
    }
  });

  it('answers an excluded, a made-up or a one-off’s start with TEC’s not-found, on both roots', async () => {
    const one = await fx.event({
      title: `One-off for ids ${tok}`,
      start_date: '2035-10-24 10:00:00',
      end_date: '2035-10-24 11:00:00',
    });
    for (const id of [
      occ(series.id, '2035-11-14 00:00:00'), // the EXDATE
      occ(series.id, '2035-10-31 23:00:00'), // a Wednesday
      occ(series.id, '2035-12-18 23:59:00'), // after UNTIL
      occ(one.id, String(one.utc_start_date)),
      occ(2 ** 26 - 1, '2035-10-30 23:00:00'), // no such post
    ]) {
      expectError(await call(t, 'GET', `/events/${id}`), 404, 'rest-event-not-found');
      const es = await fetch(`${t.gateway.url}/es/wp-json/calendar/events/v1/events/${id}`);
      expect([es.status, ((await es.json()) as Json).code]).toEqual([404, 'rest-event-not-found']);
    }
  });

  it('answers an overridden occurrence with its override, under the occurrence’s id', async () => {
    const id = occ(series.id, '2035-11-07 00:00:00');
    const res = await call<EventRecord>(t, 'GET', `/events/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe(id);
    expect(res.body.title).toBe(override.title);
    expect([res.body.start_date, res.body.utc_start_date]).toEqual([
      '2035-11-07 20:00:00',
      '2035-11-08 01:00:00',
    ]);
    expect([res.body.is_recurring, res.body.series_id, res.body.original_start_utc]).toEqual([
      true,
      series.id,
      '2035-11-07 00:00:00',
    ]);
    expect(res.body.recurrence).toEqual(series.recurrence);
  });

  it('gives an override read by its own post id its series’ rule too, as an occurrence carries it', () => {
    expect(override.id).toBeLessThan(2 ** 52);
    expect(override.recurrence).toEqual(series.recurrence);
  });

  it('answers an override’s slug as its occurrence, and a series’ slug as the series', async () => {
    const byOverride = await call<EventRecord>(t, 'GET', `/events/by-slug/${override.slug}`);
    expect(byOverride.status, JSON.stringify(byOverride.body)).toBe(200);
    expect(byOverride.body.id).toBe(occ(series.id, '2035-11-07 00:00:00'));
    expect(byOverride.body.slug).toBe(override.slug);
    expect(byOverride.body.title).toBe(override.title);
    const bySeries = await call<EventRecord>(t, 'GET', `/events/by-slug/${series.slug}`);
    expect(bySeries.status).toBe(200);
    expect([bySeries.body.id, bySeries.body.start_date]).toEqual([series.id, series.start_date]);
  });

  it('answers an occurrence’s own .ics as that occurrence alone, with its series’ UID and RECURRENCE-ID', async () => {
    const res = await fetch(`${t.gateway.url}${NS}/events/${occ(series.id, '2035-11-21 00:00:00')}.ics`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    const vevent = text.slice(text.indexOf('BEGIN:VEVENT'));
    expect(vevent).toContain(`UID:event-${series.id}@`);
    expect(vevent).toContain('RECURRENCE-ID;TZID=America/New_York:20351120T190000\r\n');
    expect(vevent).toContain('DTSTART;TZID=America/New_York:20351120T190000\r\n');
    expect(vevent).toContain('DTEND;TZID=America/New_York:20351120T210000\r\n');
    expect(vevent).not.toContain('RRULE');
    // ical.js reads it as the one instance of that series at that instant.
    const got = expandWithIcalJs(text, new Date(Date.UTC(2035, 9, 1)), new Date(Date.UTC(2036, 0, 1)));
    expect(got.map((o) => o.start)).toEqual(['2035-11-21T00:00:00.000Z']);
  });
});

describe('occurrence reads follow the series', () => {
  let other: EventRecord;
  const first = '2035-10-02 14:00:00';
  const second = '2035-10-09 14:00:00';

  beforeAll(async () => {
    other = await fx.event({
      title: `Daily walk ${tok}`,
      start_date: '2035-10-02 10:00:00',
      end_date: '2035-10-02 11:00:00',
      timezone: 'America/New_York',
      status: 'publish',
    });
    await editUpstream(t, other.id, { meta: { [metaKey('recurrence')]: 'RRULE:FREQ=WEEKLY;COUNT=5' } });
  });

  it('drops a cached occurrence when its series changes, and when an override of it is made or hidden', async () => {
    const path = `/events/${occ(other.id, second)}`;
    expect((await call<EventRecord>(t, 'GET', path)).body.title).toBe(other.title);
    // Cached for the public: the series' title changes in the WordPress admin.
    await editUpstream(t, other.id, { title: `Daily walk renamed ${tok}` });
    const renamed = await eventually(
      () => call<EventRecord>(t, 'GET', path),
      (r) => r.body.title === `Daily walk renamed ${tok}`,
    );
    expect(renamed.body.title).toBe(`Daily walk renamed ${tok}`);
    // An override of that date made in the admin (a post of its own, which names only itself): answered in its place.
    const made = await fx.event({
      title: `Walk in the park ${tok}`,
      start_date: '2035-10-09 11:00:00',
      end_date: '2035-10-09 12:00:00',
      timezone: 'America/New_York',
    });
    await editUpstream(t, made.id, {
      meta: { [metaKey('series_parent')]: other.id, [metaKey('recurrence_id')]: second },
    });
    const overridden = await eventually(
      () => call<EventRecord>(t, 'GET', path),
      (r) => r.body.title === `Walk in the park ${tok}`,
    );
    expect([overridden.body.title, overridden.body.start_date]).toEqual([
      `Walk in the park ${tok}`,
      '2035-10-09 11:00:00',
    ]);
    // A draft override is the editor's alone: the public gets the series' occurrence back.
    await editUpstream(t, made.id, { status: 'draft' });
    const back = await eventually(
      () => call<EventRecord>(t, 'GET', path),
      (r) => r.body.title === `Daily walk renamed ${tok}`,
    );
    expect([back.body.title, back.body.start_date, back.body.id]).toEqual([
      `Daily walk renamed ${tok}`,
      '2035-10-09 10:00:00',
      occ(other.id, second),
    ]);
    const editor = await call<EventRecord>(t, 'GET', path, { as: 'admin' });
    expect([editor.body.title, editor.body.id]).toEqual([`Walk in the park ${tok}`, occ(other.id, second)]);
  });

  it('answers an occurrence as its series is answered when the caller may not read the series', async () => {
    const path = `/events/${occ(other.id, first)}`;
    for (const body of [{ status: 'draft' }, { status: 'publish', password: 'walks' }]) {
      await editUpstream(t, other.id, body);
      const ofSeries = await eventually(
        () => call(t, 'GET', `/events/${other.id}`),
        (r) => r.status !== 200,
      );
      const ofOccurrence = await eventually(
        () => call(t, 'GET', path),
        (r) => r.status !== 200,
      );
      expect([ofOccurrence.status, ofOccurrence.body.code]).toEqual([ofSeries.status, ofSeries.body.code]);
      expect(JSON.stringify(ofOccurrence.body)).not.toContain('Daily walk');
    }
    // The series' password opens its occurrences.
    const open = await call<EventRecord>(t, 'GET', `${path}?password=walks`);
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    expect([open.body.id, open.body.start_date]).toEqual([occ(other.id, first), '2035-10-02 10:00:00']);
    await editUpstream(t, other.id, { password: '' });
  });
});

// Last: it makes the override of the first series a draft.
describe('a draft override', () => {
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
