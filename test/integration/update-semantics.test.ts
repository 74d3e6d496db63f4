// Updates keep what the caller sent: new times of an all-day event stand, an omitted field never overrides a sent
// one; and UPDATE_SEMANTICS=replace resets what is omitted as TEC's update does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../src/gateway.ts';
import { call, openTarget, type Target } from '../harness.ts';
import { NS, peer } from './cache-support.ts';
import { type EventRecord, Fixtures, type Json, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2035, 8);
let t: Target;
let fx: Fixtures;

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
});

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

const update = (id: number, body: Json) =>
  call<EventRecord>(t, 'POST', `/events/${id}`, { as: 'admin', body });

const allDay = (d: number, title: string) =>
  fx.event({ title: `${tok} ${title}`, start_date: day(d), end_date: day(d), all_day: true });

describe('an update of an all-day event', () => {
  it('keeps the times sent without all_day: the event becomes a timed one, as in TEC', async () => {
    const ev = await allDay(2, 'sync');
    expect([ev.all_day, ev.start_date, ev.end_date]).toEqual([true, day(2, '00:00:00'), day(2, '23:59:59')]);
    const res = await update(ev.id, { start_date: day(3, '18:30:00'), end_date: day(3, '20:00:00') });
    expect(res.status).toBe(200);
    expect([res.body.all_day, res.body.start_date, res.body.end_date]).toEqual([
      false,
      day(3, '18:30:00'),
      day(3, '20:00:00'),
    ]);
    const read = await call<EventRecord>(t, 'GET', `/events/${ev.id}`);
    expect([read.body.all_day, read.body.start_date, read.body.end_date]).toEqual([
      false,
      day(3, '18:30:00'),
      day(3, '20:00:00'),
    ]);
  });

  it('keeps one time sent alone (only an end), the stored start as it was', async () => {
    const ev = await allDay(4, 'end only');
    const res = await update(ev.id, { end_date: day(4, '17:00:00') });
    expect([res.body.all_day, res.body.start_date, res.body.end_date]).toEqual([
      false,
      day(4, '00:00:00'),
      day(4, '17:00:00'),
    ]);
  });

  it('stays all day when the times sent fit one, and when no time is sent', async () => {
    const ev = await allDay(5, 'moved');
    const moved = await update(ev.id, { start_date: day(6, '00:00:00'), end_date: day(7, '23:59:59') });
    expect([moved.body.all_day, moved.body.start_date, moved.body.end_date]).toEqual([
      true,
      day(6, '00:00:00'),
      day(7, '23:59:59'),
    ]);
    const renamed = await update(ev.id, { title: `${tok} renamed` });
    expect([renamed.body.all_day, renamed.body.start_date, renamed.body.end_date]).toEqual([
      true,
      day(6, '00:00:00'),
      day(7, '23:59:59'),
    ]);
    const explicit = await update(ev.id, {
      start_date: day(8, '09:00:00'),
      end_date: day(8, '10:00:00'),
      all_day: true,
    });
    expect([explicit.body.all_day, explicit.body.start_date, explicit.body.end_date]).toEqual([
      true,
      day(8, '00:00:00'),
      day(8, '23:59:59'),
    ]);
  });

  it('moves to a time zone sent alone on the same wall clock, all day still', async () => {
    const ev = await fx.event({
      title: `${tok} zoned`,
      start_date: day(9),
      end_date: day(9),
      all_day: true,
      timezone: 'Europe/Madrid',
    });
    const res = await update(ev.id, { timezone: 'America/New_York' });
    expect(res.body).toMatchObject({
      all_day: true,
      timezone: 'America/New_York',
      start_date: day(9, '00:00:00'),
      utc_start_date: day(9, '04:00:00'),
      end_date: day(9, '23:59:59'),
    });
  });
});

describe('an update in the default (merge) semantics', () => {
  it('keeps every field it does not send, and stores every field it sends as sent', async () => {
    const ev = await fx.event({
      title: `${tok} merge`,
      start_date: day(10, '19:00:00'),
      end_date: day(10, '21:00:00'),
      timezone: 'Europe/Madrid',
      featured: true,
      hide_from_listings: true,
      sticky: true,
      show_map: false,
      cost: '15€',
      website: 'https://example.com/merge',
      organizer: [{ organizer: `${tok} host` }],
    });
    const res = await update(ev.id, { start_date: day(11, '20:00:00'), cost: '18' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      featured: true,
      hide_from_listings: true,
      sticky: true,
      show_map: false,
      website: 'https://example.com/merge',
      timezone: 'Europe/Madrid',
      start_date: day(11, '20:00:00'),
      end_date: day(11, '20:00:00'),
      utc_start_date: day(11, '18:00:00'),
    });
    // The amount as sent, in the event's stored currency (a separate field, not sent: kept).
    expect(res.body.cost).toBe('18€');
    expect(res.body.cost_details).toMatchObject({ currency_symbol: '€', values: ['18'] });
    expect((res.body.organizer as Json[]).map((o) => o.organizer)).toEqual([`${tok} host`]);
  });
});

describe('UPDATE_SEMANTICS=replace', () => {
  let g: Gateway;
  beforeAll(async () => {
    g = await peer(t, { updateSemantics: 'replace' });
  });
  afterAll(async () => {
    await g?.close();
  });

  it("resets what the update omits to TEC's defaults, and keeps what TEC's update keeps", async () => {
    const ev = await fx.event({
      title: `${tok} replace`,
      description: 'Kept.',
      start_date: day(12),
      end_date: day(12),
      all_day: true,
      timezone: 'Asia/Tokyo',
      featured: true,
      hide_from_listings: true,
      sticky: true,
      cost: '20$',
      website: 'https://example.com/replace',
      venue: { venue: `${tok} kept hall` },
      organizer: [{ organizer: `${tok} dropped host` }],
      categories: [`${tok}-cat`],
    });
    const res = await fetch(`${g.url}${NS}/events/${ev.id}`, {
      method: 'POST',
      headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: `${tok} replaced` }),
    });
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).toBe(200);
    const site = (await call<Json>(t, 'GET', `/events/${ev.id}`)).body;
    for (const e of [body, site])
      expect(e).toMatchObject({
        title: `${tok} replaced`,
        all_day: false,
        featured: false,
        hide_from_listings: false,
        sticky: false,
        show_map: false,
        show_map_link: false,
        cost: '',
        organizer: [],
        start_date: day(12, '00:00:00'),
        end_date: day(12, '23:59:59'),
        status: 'publish',
      });
    for (const e of [body, site]) {
      expect(String(e.description)).toContain('Kept.');
      // An emptied website reads as the permalink (wp/v2 cannot tell an empty row from a missing one).
      expect(e.website).toBe(e.url);
    }
    // The site's time zone, as TEC's update sets an omitted one (luxon's spelling of a UTC site: `UTC`).
    expect(body.timezone).toBe(g.deps.site.timezone);
    expect(body.timezone).not.toBe('Asia/Tokyo');
    expect((body.venue as Json).venue).toBe(`${tok} kept hall`);
    expect((body.categories as Json[]).map((c) => c.name)).toEqual([`${tok}-cat`]);
  });

  it("resets a venue's omitted map flags to true, as TEC's venue update does, and keeps its texts", async () => {
    const made = await call<Json>(t, 'POST', '/venues', {
      as: 'admin',
      body: { venue: `${tok} flags hall`, city: 'Oslo', show_map: false, show_map_link: false },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect([made.body.show_map, made.body.show_map_link]).toEqual([false, false]);
    const merged = await call<Json>(t, 'POST', `/venues/${made.body.id}`, {
      as: 'admin',
      body: { zip: '0150' },
    });
    expect([merged.body.show_map, merged.body.show_map_link]).toEqual([false, false]);
    const res = await fetch(`${g.url}${NS}/venues/${made.body.id}`, {
      method: 'POST',
      headers: { Authorization: t.auth.admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone: '+47 1234' }),
    });
    const body = (await res.json()) as Json;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      venue: `${tok} flags hall`,
      city: 'Oslo',
      zip: '0150',
      phone: '+47 1234',
      show_map: true,
      show_map_link: true,
      status: 'publish',
    });
    await call(t, 'DELETE', `/venues/${made.body.id}`, { as: 'admin' });
  });
});
