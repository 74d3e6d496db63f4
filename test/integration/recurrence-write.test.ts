// Writing recurring events: a series created with its rule, updates and deletes with each scope, the stored rows
// read back through wp/v2 (the list and read side of series is test/integration/recurrence-read*).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecord } from '../../src/mapping/codec.ts';
import { occurrenceId } from '../../src/recurrence/ids.ts';
import type { WpPost } from '../../src/wp/types.ts';
import { call, openTarget, type Target } from '../harness.ts';
import { type EventRecord, expectError, Fixtures, type Json, token } from './fixtures.ts';

const tok = token();
let t: Target;
let fx: Fixtures;

beforeAll(async () => {
  // Writes sent at once interleave over the mock as over WordPress (the concurrent writes below).
  t = await openTarget({ upstreamLatencyMs: 2 });
  fx = new Fixtures(t);
});

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

/** A stored event as wp/v2 holds it (edit context, any status), with its mapped values by calendar field name. */
async function stored(id: number): Promise<{ post: WpPost; v: Record<string, unknown> }> {
  const res = await fetch(`${t.upstream}/wp/v2/${t.mapping.event.restBase}/${id}?context=edit`, {
    headers: { Authorization: t.auth.admin },
  });
  const post = (await res.json()) as WpPost;
  expect(res.status, JSON.stringify(post)).toBe(200);
  return { post, v: readRecord(t.mapping, 'event', post) };
}

/** Every event whose series_parent is `series`, any status but the trash, read through wp/v2 (the gateway's filter). */
async function overrides(series: number): Promise<Array<Record<string, unknown>>> {
  const res = await fetch(
    `${t.upstream}/wp/v2/${t.mapping.event.restBase}?calendar_gateway_series=${series}&status=any&context=edit&per_page=100`,
    { headers: { Authorization: t.auth.admin } },
  );
  const posts = (await res.json()) as WpPost[];
  return posts
    .map((p) => ({ ...readRecord(t.mapping, 'event', p), id: p.id, status: p.status }))
    .filter((p) => p.series_parent === series);
}

/** A weekly 19:00 New York series on Tuesdays from 7 October 2036 (crossing the end of DST on 2 November). */
const weekly = (title: string, recurrence: unknown = { rrule: 'FREQ=WEEKLY;COUNT=8' }): Json => ({
  title: `${title} ${tok}`,
  start_date: '2036-10-07 19:00:00',
  end_date: '2036-10-07 21:00:00',
  timezone: 'America/New_York',
  recurrence,
});

/** The occurrence id of a series' occurrence starting at this UTC instant. */
const occ = (series: number, utc: string) =>
  occurrenceId({ seriesId: series, originalStartMs: Date.parse(`${utc.replace(' ', 'T')}Z`) })!;

const send = (method: string, path: string, body?: unknown) =>
  call<EventRecord>(t, method, path, { as: 'admin', body });

describe('creating a series', () => {
  it('stores the rule as its canonical text, from the object or the text', async () => {
    const a = await fx.event(weekly('Object', { rrule: 'byday=th,tu;freq=weekly;until=20361231' }));
    const b = await fx.event(weekly('Text', 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20370101T045959Z'));
    const want = 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20370101T045959Z';
    expect((await stored(a.id)).v.recurrence).toBe(want);
    expect((await stored(b.id)).v.recurrence).toBe(want);
  });

  it('stores RDATE and EXDATE as local times of the event, sorted', async () => {
    const e = await fx.event(
      weekly('Dates', {
        rrule: 'FREQ=WEEKLY',
        exdate: ['2036-10-21 19:00', '20361014T190000'],
        rdate: ['2036-10-09'],
      }),
    );
    expect((await stored(e.id)).v.recurrence).toBe(
      'RRULE:FREQ=WEEKLY\nRDATE:20361009T190000\nEXDATE:20361014T190000,20361021T190000',
    );
  });

  it.each([
    ['an unparsable RRULE', 'FREQ=WEEKLY;BYDAY=XX', /BYDAY value XX/],
    ['an INTERVAL below 1', 'FREQ=WEEKLY;INTERVAL=0', /INTERVAL must be a whole number of 1 or more/],
    ['a COUNT over the maximum', 'FREQ=DAILY;COUNT=1001', /COUNT 1001 is over the maximum of 1000/],
    ['an UNTIL before the start', 'FREQ=DAILY;UNTIL=20360101T000000Z', /UNTIL 20360101T000000Z is before/],
    ['a FREQ below DAILY', 'FREQ=HOURLY', /FREQ=HOURLY is not supported/],
  ])('refuses %s with 400 rest_invalid_param naming recurrence', async (_name, rrule, why) => {
    const res = await send('POST', '/events', weekly('Bad', { rrule }));
    expectError(res, 400, 'rest_invalid_param');
    const params = (res.body.data as Json).params as Record<string, string>;
    expect(Object.keys(params)).toEqual(['recurrence']);
    expect(params.recurrence).toMatch(why);
  });
});

describe('updating one occurrence (scope this)', () => {
  it('makes an override linked to the series and the original start, and updates it the next time', async () => {
    const s = await fx.event(weekly('This'));
    const third = occ(s.id, '2036-10-21 23:00:00');
    const res = await send('POST', `/events/${third}`, {
      title: `Moved ${tok}`,
      start_date: '2036-10-22 20:00:00',
      end_date: '2036-10-22 22:00:00',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [o, ...more] = await overrides(s.id);
    expect(more).toEqual([]);
    fx.ids.push(Number(o!.id));
    expect(o).toMatchObject({
      recurrence_id: '2036-10-21 23:00:00',
      start_date: '2036-10-22 20:00:00',
      end_date: '2036-10-22 22:00:00',
      timezone: 'America/New_York',
      title: `Moved ${tok}`,
      status: 'publish',
    });
    expect(o!.recurrence ?? '').toBe('');
    // The series itself is untouched.
    expect((await stored(s.id)).v).toMatchObject({
      title: `This ${tok}`,
      recurrence: 'RRULE:FREQ=WEEKLY;COUNT=8',
    });

    const again = await send('POST', `/events/${third}`, { event_status: 'canceled' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const after = await overrides(s.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: o!.id, event_status: 'canceled', title: `Moved ${tok}` });
  });

  it('takes the occurrence dates across the DST change (19:00 New York is 00:00 UTC in November)', async () => {
    const s = await fx.event(weekly('Dst'));
    const res = await send('POST', `/events/${occ(s.id, '2036-11-05 00:00:00')}`, {
      title: `After DST ${tok}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [o] = await overrides(s.id);
    fx.ids.push(Number(o!.id));
    expect(o).toMatchObject({ start_date: '2036-11-04 19:00:00', end_date: '2036-11-04 21:00:00' });
    // Where the mapping keeps the UTC copy (TEC's), it is the original start.
    if (t.mapping.event.fields.utc_start_date) expect(o!.utc_start_date).toBe('2036-11-05 00:00:00');
  });

  it('answers 404 for an occurrence id the series has no occurrence at, and 400 for a rule on one occurrence', async () => {
    const s = await fx.event(weekly('Nope'));
    expectError(
      await send('POST', `/events/${occ(s.id, '2036-10-08 23:00:00')}`, { title: 'x' }),
      404,
      'rest-event-not-found',
    );
    const res = await send('POST', `/events/${occ(s.id, '2036-10-14 23:00:00')}`, {
      recurrence: { rrule: 'FREQ=DAILY' },
    });
    expectError(res, 400, 'rest_invalid_param');
    expect(Object.keys((res.body.data as Json).params as Json)).toEqual(['recurrence']);
    expect(await overrides(s.id)).toEqual([]);
  });
});

describe('deleting one occurrence (scope this)', () => {
  it('adds an EXDATE to the series, and trashes the occurrence override', async () => {
    const s = await fx.event(weekly('Cut'));
    expect((await send('DELETE', `/events/${occ(s.id, '2036-10-14 23:00:00')}`)).status).toBe(200);
    await send('POST', `/events/${occ(s.id, '2036-10-21 23:00:00')}`, { title: `Gone ${tok}` });
    const [o] = await overrides(s.id);
    const res = await send('DELETE', `/events/${o!.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await stored(s.id)).v.recurrence).toBe(
      'RRULE:FREQ=WEEKLY;COUNT=8\nEXDATE:20361014T190000,20361021T190000',
    );
    expect((await stored(Number(o!.id))).post.status).toBe('trash');
  });
});

describe('this and the following occurrences (scope following)', () => {
  it('ends the series before the occurrence and starts a new one from it, moving later overrides', async () => {
    const s = await fx.event(weekly('Split', { rrule: 'FREQ=WEEKLY;COUNT=8', exdate: ['20361111T190000'] }));
    await send('POST', `/events/${occ(s.id, '2036-10-14 23:00:00')}`, { title: `Early ${tok}` });
    await send('POST', `/events/${occ(s.id, '2036-11-19 00:00:00')}`, { title: `Late ${tok}` });
    const res = await send('POST', `/events/${occ(s.id, '2036-10-28 23:00:00')}?scope=following`, {
      title: `Later ${tok}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const first = await stored(s.id);
    expect(first.v).toMatchObject({ title: `Split ${tok}`, recurrence: 'RRULE:FREQ=WEEKLY;COUNT=3' });
    const next = (await overrides(s.id)).map((o) => o.title);
    expect(next).toEqual([`Early ${tok}`]);
    // The new series: found by its link to the first.
    const made = await stored(res.body.id);
    fx.ids.push(made.post.id);
    expect(made.v).toMatchObject({
      title: `Later ${tok}`,
      start_date: '2036-10-28 19:00:00',
      end_date: '2036-10-28 21:00:00',
      series_previous: s.id,
      recurrence: 'RRULE:FREQ=WEEKLY;COUNT=5\nEXDATE:20361111T190000',
    });
    const moved = await overrides(made.post.id);
    expect(moved).toMatchObject([{ title: `Late ${tok}`, recurrence_id: '2036-11-19 00:00:00' }]);
    for (const o of moved) fx.ids.push(Number(o.id));
  });

  it('starts the new series at another time when the update moves it, its dates and overrides with it', async () => {
    const s = await fx.event(weekly('Shift', { rrule: 'FREQ=WEEKLY', exdate: ['20361111T190000'] }));
    await send('POST', `/events/${occ(s.id, '2036-11-19 00:00:00')}`, { title: `Late ${tok}` });
    const res = await send('POST', `/events/${occ(s.id, '2036-10-28 23:00:00')}?scope=following`, {
      start_date: '2036-10-28 18:30:00',
      end_date: '2036-10-28 20:30:00',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    fx.ids.push(res.body.id);
    expect((await stored(s.id)).v.recurrence).toBe('RRULE:FREQ=WEEKLY;UNTIL=20361028T225959Z');
    expect((await stored(res.body.id)).v).toMatchObject({
      start_date: '2036-10-28 18:30:00',
      recurrence: 'RRULE:FREQ=WEEKLY\nEXDATE:20361111T183000',
    });
    const moved = await overrides(res.body.id);
    for (const o of moved) fx.ids.push(Number(o.id));
    expect(moved).toMatchObject([{ title: `Late ${tok}`, recurrence_id: '2036-11-18 23:30:00' }]);
  });

  it('on delete, ends the series and trashes the later overrides', async () => {
    const s = await fx.event(weekly('Stop', { rrule: 'FREQ=WEEKLY' }));
    await send('POST', `/events/${occ(s.id, '2036-11-19 00:00:00')}`, { title: `Late ${tok}` });
    const [late] = await overrides(s.id);
    const res = await send('DELETE', `/events/${occ(s.id, '2036-10-28 23:00:00')}?scope=following`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await stored(s.id)).v.recurrence).toBe('RRULE:FREQ=WEEKLY;UNTIL=20361028T225959Z');
    expect((await stored(Number(late!.id))).post.status).toBe('trash');
  });
});

describe('the whole series (scope all)', () => {
  it('changes the series, and each override where it had not changed the field itself', async () => {
    const s = await fx.event({ ...weekly('All'), cost: '10' });
    await send('POST', `/events/${occ(s.id, '2036-10-14 23:00:00')}`, { title: `Own title ${tok}` });
    await send('POST', `/events/${occ(s.id, '2036-10-21 23:00:00')}`, { cost: '12' });
    const res = await send('POST', `/events/${occ(s.id, '2036-10-28 23:00:00')}?scope=all`, {
      title: `Renamed ${tok}`,
      cost: '15',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await stored(s.id)).v).toMatchObject({ title: `Renamed ${tok}`, cost: '15' });
    const byStart = Object.fromEntries((await overrides(s.id)).map((o) => [o.recurrence_id, o]));
    expect(byStart['2036-10-14 23:00:00']).toMatchObject({ title: `Own title ${tok}`, cost: '15' });
    expect(byStart['2036-10-21 23:00:00']).toMatchObject({ title: `Renamed ${tok}`, cost: '12' });
  });

  it("moves the rule's dates and the overrides' original starts with the series' start", async () => {
    const s = await fx.event(weekly('Later', { rrule: 'FREQ=WEEKLY;COUNT=8', exdate: ['20361028T190000'] }));
    await send('POST', `/events/${occ(s.id, '2036-10-14 23:00:00')}`, { title: `Kept dates ${tok}` });
    await send('POST', `/events/${occ(s.id, '2036-10-21 23:00:00')}`, {
      start_date: '2036-10-22 18:00:00',
      end_date: '2036-10-22 19:00:00',
    });
    const res = await send('POST', `/events/${s.id}`, {
      start_date: '2036-10-07 20:00:00',
      end_date: '2036-10-07 22:00:00',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await stored(s.id)).v).toMatchObject({
      start_date: '2036-10-07 20:00:00',
      recurrence: 'RRULE:FREQ=WEEKLY;COUNT=8\nEXDATE:20361028T200000',
    });
    const byStart = Object.fromEntries((await overrides(s.id)).map((o) => [o.recurrence_id, o]));
    // An hour later in UTC too; the override that kept its dates moves with the series, the moved one stays.
    expect(byStart['2036-10-15 00:00:00']).toMatchObject({
      start_date: '2036-10-14 20:00:00',
      end_date: '2036-10-14 22:00:00',
    });
    expect(byStart['2036-10-22 00:00:00']).toMatchObject({ start_date: '2036-10-22 18:00:00' });
  });

  it("moves the rule's dates with the start of a series without overrides too", async () => {
    const s = await fx.event(weekly('Plain', { rrule: 'FREQ=DAILY', rdate: ['20361009T100000'] }));
    const res = await send('POST', `/events/${s.id}`, {
      start_date: '2036-10-07 19:30:00',
      end_date: '2036-10-07 21:30:00',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await stored(s.id)).v.recurrence).toBe('RRULE:FREQ=DAILY\nRDATE:20361009T103000');
  });

  it('on delete, trashes the series and its overrides', async () => {
    const s = await fx.event(weekly('Bin'));
    await send('POST', `/events/${occ(s.id, '2036-10-14 23:00:00')}`, { title: `Own ${tok}` });
    const [o] = await overrides(s.id);
    const res = await send('DELETE', `/events/${s.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await stored(s.id)).post.status).toBe('trash');
    expect((await stored(Number(o!.id))).post.status).toBe('trash');
  });
});

describe('scope', () => {
  it('refuses an unknown scope with 400 rest_invalid_param naming scope', async () => {
    const s = await fx.event(weekly('Scope'));
    const res = await send('DELETE', `/events/${s.id}?scope=some`);
    expectError(res, 400, 'rest_invalid_param');
    expect(Object.keys((res.body.data as Json).params as Json)).toEqual(['scope']);
  });

  it('is ignored on an event that does not repeat', async () => {
    const e = await fx.event({
      title: `Once ${tok}`,
      start_date: '2036-10-07 19:00:00',
      end_date: '2036-10-07 20:00:00',
    });
    const res = await send('POST', `/events/${e.id}?scope=following`, { title: `Once more ${tok}` });
    expect(res.status).toBe(200);
    expect((await stored(e.id)).v.title).toBe(`Once more ${tok}`);
  });
});

describe('concurrent writes to one series', () => {
  it('keeps every EXDATE of occurrences deleted at once', async () => {
    const s = await fx.event(weekly('Together'));
    const starts = [
      '2036-10-14 23:00:00',
      '2036-10-21 23:00:00',
      '2036-10-28 23:00:00',
      '2036-11-05 00:00:00',
    ];
    const answers = await Promise.all(starts.map((u) => send('DELETE', `/events/${occ(s.id, u)}`)));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect((await stored(s.id)).v.recurrence).toBe(
      'RRULE:FREQ=WEEKLY;COUNT=8\nEXDATE:20361014T190000,20361021T190000,20361028T190000,20361104T190000',
    );
  });

  it('writes a plain update of a series in its turn: a delete of an occurrence after it adds to the new rule', async () => {
    const s = await fx.event(weekly('Turned'));
    const locks = t.gateway.deps.seriesLocks!;
    const hold = locks.hold;
    // The delete is sent the moment the update's turn ends, and the update goes on only once the delete is answered:
    // an update that wrote its post after its turn would write the rule it read over the delete's EXDATE.
    let deleted: Promise<{ status: number; body: unknown }> | undefined;
    locks.hold = async function held<T>(this: typeof locks, id: number, write: () => Promise<T>): Promise<T> {
      const out = (await hold.call(this, id, write)) as T;
      if (id === s.id && !deleted) {
        deleted = send('DELETE', `/events/${occ(s.id, '2036-10-28 23:00:00')}`);
        await deleted;
      }
      return out;
    } as typeof hold;
    try {
      const changed = await send('POST', `/events/${s.id}`, {
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=10' },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect((await deleted!).status).toBe(200);
    } finally {
      locks.hold = hold;
    }
    expect((await stored(s.id)).v.recurrence).toBe('RRULE:FREQ=WEEKLY;COUNT=10\nEXDATE:20361028T190000');
  });

  it('makes one override of an occurrence updated twice at once', async () => {
    const s = await fx.event(weekly('Twice'));
    const third = occ(s.id, '2036-10-21 23:00:00');
    const answers = await Promise.all([
      send('POST', `/events/${third}`, { title: `First ${tok}` }),
      send('POST', `/events/${third}`, { event_status: 'canceled' }),
    ]);
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const made = await overrides(s.id);
    fx.ids.push(...made.map((o) => Number(o.id)));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ title: `First ${tok}`, event_status: 'canceled' });
  });
});
