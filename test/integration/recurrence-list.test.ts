// Lists of occurrences (issue 31): /events holds one item per occurrence of a series in the window, with the
// occurrence's own dates and id, in start order with the one-offs, paged and counted; an EXDATE removes one, an
// override replaces it (a cancelled one shows as cancelled, a draft one hides nothing from the public); `series=` and
// `hide_subsequent_recurrences=` narrow it; filters apply to series; the feed still sends a series once. Runs against
// the mock and the real WordPress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { occurrenceId } from '../../src/recurrence/ids.ts';
import { call, openTarget, type Target } from '../harness.ts';
import { NS } from './cache-support.ts';
import { type EventRecord, editUpstream, expectError, Fixtures, type Json, token } from './fixtures.ts';

const tok = token();
let t: Target;
let fx: Fixtures;
let series: EventRecord;
let once: EventRecord;
let venueId: number;
/** 2043: no other file's window. Tuesdays 19:00 New York from 13 October, no end; DST ends on 1 November. */
const WINDOW = 'start_date=2043-10-01%2000:00:00&end_date=2043-12-31%2023:59:59';
const list = (query: string, window = `${WINDOW}&per_page=50`) =>
  call(t, 'GET', `/events?${window}&${query}`);
const occ = (utc: string) =>
  occurrenceId({ seriesId: series.id, originalStartMs: Date.parse(`${utc.replace(' ', 'T')}Z`) }) as number;
const events = (res: { body: Json }) => (res.body.events as EventRecord[] | undefined) ?? [];
const starts = (res: { body: Json }) => events(res).map((e) => e.start_date);

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  series = await fx.event({
    title: `Salsa ${tok}`,
    description: `Bring shoes ${tok}zz.`,
    start_date: '2043-10-13 19:00:00',
    end_date: '2043-10-13 21:00:00',
    timezone: 'America/New_York',
    categories: ['jazz'],
    venue: { venue: `Hall ${tok}`, city: 'Madrid' },
    recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU' },
  });
  venueId = (series.venue as Json).id as number;
  once = await fx.event({
    title: `Once ${tok}`,
    start_date: '2043-11-04 10:00:00',
    end_date: '2043-11-04 11:00:00',
    timezone: 'America/New_York',
  });
  const send = async (method: string, path: string, body?: Json) => {
    const res = await call<EventRecord>(t, method, path, { as: 'admin', body });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    if (method === 'POST' && res.body.id !== undefined) fx.ids.push(res.body.id);
    return res.body;
  };
  // 17 November excluded; 10 November moved to Wednesday 20:00; 1 December cancelled; 8 December moved, then a draft.
  await send('DELETE', `/events/${occ('2043-11-18 00:00:00')}`);
  await send('POST', `/events/${occ('2043-11-11 00:00:00')}`, {
    start_date: '2043-11-11 20:00:00',
    end_date: '2043-11-11 22:00:00',
  });
  await send('POST', `/events/${occ('2043-12-02 00:00:00')}`, { event_status: 'canceled' });
  await send('POST', `/events/${occ('2043-12-09 00:00:00')}`, {
    start_date: '2043-12-09 20:00:00',
    end_date: '2043-12-09 22:00:00',
  });
  const overrides = await call<{ events: EventRecord[] }>(t, 'GET', `/events?${WINDOW}&search=${tok}`, {
    as: 'admin',
  });
  const draft = overrides.body.events.find((e) => e.start_date === '2043-12-09 20:00:00');
  const postId = draft ? await overridePostOf(draft) : undefined;
  expect(postId).toBeDefined();
  await editUpstream(t, postId as number, { status: 'draft' });
});

/** The override post behind an occurrence record (the index knows which post replaces it). */
async function overridePostOf(e: EventRecord): Promise<number | undefined> {
  const index = await t.gateway.deps.indexes.forLanguage(t.mapping.language.default);
  const original = Date.parse(`${String(e.original_start_utc).replace(' ', 'T')}Z`);
  for (const id of index.repeats.overridesOf(series.id)) {
    if (index.repeats.get(id)?.originalStartMs === original) return id;
  }
  return undefined;
}

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

const PUBLIC = [
  '2043-10-13 19:00:00',
  '2043-10-20 19:00:00',
  '2043-10-27 19:00:00',
  '2043-11-03 19:00:00',
  '2043-11-04 10:00:00',
  '2043-11-11 20:00:00',
  '2043-11-24 19:00:00',
  '2043-12-01 19:00:00',
  '2043-12-08 19:00:00',
  '2043-12-15 19:00:00',
  '2043-12-22 19:00:00',
  '2043-12-29 19:00:00',
];

describe('a list holds one item per occurrence', () => {
  it('lists a weekly series without an end across the DST change, an EXDATE out, overrides in their place', async () => {
    const res = await list(`search=${tok}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(starts(res)).toEqual(PUBLIC);
    const [first, , , nov3, one, moved, , canceled, draftHidden] = events(res);
    // 19:00 local on both sides of 1 November: 23:00 UTC before, 00:00 the next day after.
    expect(first).toMatchObject({
      id: occ('2043-10-13 23:00:00'),
      utc_start_date: '2043-10-13 23:00:00',
      end_date: '2043-10-13 21:00:00',
      is_recurring: true,
      series_id: series.id,
      original_start_utc: '2043-10-13 23:00:00',
    });
    expect(nov3).toMatchObject({
      id: occ('2043-11-04 00:00:00'),
      utc_start_date: '2043-11-04 00:00:00',
      utc_end_date: '2043-11-04 02:00:00',
      end_date: '2043-11-03 21:00:00',
    });
    expect(one.id).toBe(once.id);
    expect(moved).toMatchObject({
      id: occ('2043-11-11 00:00:00'),
      series_id: series.id,
      original_start_utc: '2043-11-11 00:00:00',
      end_date: '2043-11-11 22:00:00',
    });
    expect(canceled).toMatchObject({ id: occ('2043-12-02 00:00:00'), event_status: 'canceled' });
    // The 8 December override is a draft: the public sees the series' own occurrence there.
    expect(draftHidden).toMatchObject({ id: occ('2043-12-09 00:00:00'), start_date: '2043-12-08 19:00:00' });
    const ids = events(res).map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(series.id);
    // Every occurrence carries its series' rule, an override's too (as its own read does); a one-off has none.
    expect(events(res).every((e) => (e.recurrence === null) === (e.id === once.id))).toBe(true);
  });

  it('pages across occurrences and counts them in the envelope and the headers', async () => {
    const pages = await Promise.all(
      [1, 2, 3].map((p) => list(`search=${tok}&page=${p}`, `${WINDOW}&per_page=5`)),
    );
    expect(pages.flatMap(starts)).toEqual(PUBLIC);
    for (const p of pages) {
      expect([p.body.total, p.body.total_pages]).toEqual([12, 3]);
      expect(p.headers.get('X-TEC-Total')).toBe('12');
      expect(p.headers.get('X-TEC-TotalPages')).toBe('3');
    }
    expect(String(pages[0]?.body.next_rest_url)).toContain('page=2');
    expectError(
      await list(`search=${tok}&page=4`, `${WINDOW}&per_page=5`),
      404,
      'event-archive-page-not-found',
    );
  });

  it('narrows to one series with series=, and refuses an id that is no series the caller may read', async () => {
    const res = await list(`series=${series.id}`);
    expect(starts(res)).toEqual(PUBLIC.filter((s) => s !== '2043-11-04 10:00:00'));
    expect(res.body.total).toBe(11);
    expect(String(res.body.rest_url)).toContain(`series=${series.id}`);
    for (const bad of [String(once.id), '999999999', 'abc', '-3']) {
      const r = await list(`series=${bad}`);
      expectError(r, 400, 'rest_invalid_param');
      expect(Object.keys((r.body.data as Json).params as Json)).toEqual(['series']);
    }
  });

  it('keeps only the next occurrence of each series with hide_subsequent_recurrences=true', async () => {
    const res = await list(`search=${tok}&hide_subsequent_recurrences=true`);
    expect(starts(res)).toEqual(['2043-10-13 19:00:00', '2043-11-04 10:00:00']);
    expect(res.body.total).toBe(2);
    const later = await list(
      `search=${tok}&hide_subsequent_recurrences=1`,
      'start_date=2043-11-05&end_date=2043-12-31&per_page=50',
    );
    expect(starts(later)).toEqual(['2043-11-11 20:00:00']);
    expect(starts(await list(`search=${tok}&hide_subsequent_recurrences=false`))).toEqual(PUBLIC);
    const bad = await list(`hide_subsequent_recurrences=maybe`);
    expectError(bad, 400, 'rest_invalid_param');
    expect(Object.keys((bad.body.data as Json).params as Json)).toEqual(['hide_subsequent_recurrences']);
  });

  it('applies category, venue and search filters to the series', async () => {
    const jazz = await list(`search=${tok}&categories=jazz`);
    expect(jazz.body.total).toBe(11);
    expect(events(jazz).map((e) => e.id)).not.toContain(once.id);
    const atHall = await list(`venue=${venueId}`);
    expect(events(atHall).filter((e) => e.series_id === series.id)).toHaveLength(11);
    // A word of the series' description only.
    const described = await list(`search=${tok}zz`);
    expect(starts(described)).toContain('2043-10-20 19:00:00');
    expect(events(described).map((e) => e.id)).not.toContain(once.id);
    expect((await list(`search=${tok}&categories=classical`)).body.total).toBe(0);
  });

  it('makes a new series searchable at once', async () => {
    const word = `${tok}fresh`;
    const made = await fx.event({
      title: `Yoga ${word}`,
      start_date: '2043-10-05 08:00:00',
      end_date: '2043-10-05 09:00:00',
      timezone: 'Europe/Madrid',
      recurrence: { rrule: 'FREQ=DAILY;COUNT=3' },
    });
    const res = await list(`search=${word}`);
    expect(starts(res)).toEqual(['2043-10-05 08:00:00', '2043-10-06 08:00:00', '2043-10-07 08:00:00']);
    expect(events(res).every((e) => e.series_id === made.id)).toBe(true);
  });

  it('counts a series that began in the past for only_with_upcoming by its occurrences to come, an ended one not', async () => {
    const at = async (name: string, rrule: string) => {
      const e = await fx.event({
        title: `${name} ${tok}`,
        start_date: '2020-01-07 18:00:00',
        end_date: '2020-01-07 19:00:00',
        timezone: 'America/New_York',
        venue: { venue: `${name} ${tok}`, city: 'Lyon' },
        recurrence: { rrule },
      });
      return (e.venue as Json).id as number;
    };
    const ongoing = await at('Club', 'FREQ=WEEKLY;BYDAY=TU');
    const ended = await at('Guild', 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20200303T000000Z');
    const venues = async (query: string) => {
      const res = await call(t, 'GET', `/venues?search=${tok}&per_page=50&${query}`);
      expect(res.status).toBe(200);
      return ((res.body.venues as Json[] | undefined) ?? []).map((v) => v.id as number);
    };
    expect(await venues('has_events=true')).toEqual(expect.arrayContaining([ongoing, ended]));
    const upcoming = await venues('only_with_upcoming=true');
    expect(upcoming).toContain(ongoing);
    expect(upcoming).not.toContain(ended);
  });

  it('sends the series once in the feed (master and overrides), also when only a later occurrence is in the window', async () => {
    const res = await fetch(
      `${t.gateway.url}${NS}/events.ics?start_date=2043-12-10&end_date=2043-12-20&search=${tok}`,
    );
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const vevents = text.split('BEGIN:VEVENT').slice(1);
    const ofSeries = vevents.filter((v) => v.includes(`UID:event-${series.id}@`));
    // The master with its rule, the moved and the cancelled override (the draft one is not the public's).
    expect(ofSeries).toHaveLength(3);
    expect(ofSeries.filter((v) => v.includes('RRULE:FREQ=WEEKLY;BYDAY=TU'))).toHaveLength(1);
    expect(ofSeries.filter((v) => v.includes('RECURRENCE-ID'))).toHaveLength(2);
    expect(vevents.some((v) => v.includes(`UID:event-${once.id}@`))).toBe(false);
  });
});
