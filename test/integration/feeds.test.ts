// iCalendar feeds (/events.ics, /events/{id}.ics) read back by an independent parser (ical.js): the same events and
// times as the JSON list, stable UIDs, SEQUENCE raised by changes, status, and the care JSON answers get.
import { type IncomingHttpHeaders, request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, eventually, openTarget, type Target } from '../harness.ts';
import { NS } from './cache-support.ts';
import {
  type EventRecord,
  editUpstream,
  expectError,
  Fixtures,
  type Json,
  monthOf,
  token,
} from './fixtures.ts';

const tok = token();
const day = monthOf(2034, 5);
let t: Target;
let fx: Fixtures;
let host: string;
const made: EventRecord[] = [];
let category = '';
let venueId = 0;

const q = (o: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(o).filter((e): e is [string, string] => e[1] !== undefined)).toString();
const window = { start_date: day(1, '00:00:00'), end_date: day(28, '23:59:59') };

/** The feed at `path` as ical.js reads it: its VEVENTs, with every zone it carries registered. */
async function feed(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.gateway.url}${NS}${path}`, { headers });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  const cal = new ICAL.Component(ICAL.parse(text));
  for (const z of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(z);
  return { res, text, cal, events: cal.getAllSubcomponents('vevent') };
}

/** The bytes as sent (fetch would unzip them). */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = request(`${t.gateway.url}${NS}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const uidOf = (id: number) => `event-${id}@${host}`;
const idOfUid = (uid: unknown) => Number(String(uid).replace(/^event-(\d+)@.*$/, '$1'));
const instant = (v: ICAL.Component, prop: string) =>
  (v.getFirstPropertyValue(prop) as ICAL.Time).toJSDate().toISOString().slice(0, 19).replace('T', ' ');

/** Every event of the JSON list across its pages, in order. */
async function allPages(query: Record<string, string | undefined>, as?: 'editor'): Promise<EventRecord[]> {
  const out: EventRecord[] = [];
  for (let page = 1; ; page++) {
    const res = await call<{ events: EventRecord[]; total_pages: number }>(
      t,
      'GET',
      `/events?${q({ ...query, per_page: '5', page: String(page) })}`,
      { as },
    );
    if (res.status === 404 && page > 1) break;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.events);
    if (page >= res.body.total_pages) break;
  }
  return out;
}

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  const first = await fx.event({
    title: `Feed trio ${tok}`,
    description: '<p>Bring; your, own \\ chairs.</p>',
    start_date: day(3, '20:00:00'),
    end_date: day(3, '23:00:00'),
    categories: [`feedcat${tok}`],
    venue: { venue: `Feed Hall ${tok}`, address: '1 High St', city: 'Lisbon' },
  });
  made.push(first);
  // UIDs are the site's: the same whichever gateway or root a subscriber reads the feed from.
  host = new URL(String(first.url)).host;
  category = (first.categories as Json[])[0]?.slug as string;
  venueId = (first.venue as Json).id as number;
  made.push(
    await fx.event({
      title: `Feed all day ${tok}`,
      start_date: day(5, '00:00:00'),
      end_date: day(6, '23:59:59'),
      all_day: true,
      featured: true,
    }),
    await fx.event({
      title: `Feed Tokyo ${tok}`,
      start_date: day(8, '09:00:00'),
      end_date: day(8, '10:30:00'),
      timezone: 'Asia/Tokyo',
      categories: [category],
    }),
    await fx.event({
      title: `Feed secret ${tok}`,
      description: 'Only with the password.',
      start_date: day(9),
      end_date: day(9, '11:00:00'),
      venue: venueId,
    }),
  );
  // A password is set in WordPress (TEC's writes take none).
  await editUpstream(t, made[3]!.id, { password: 'sesame' });
  for (let i = 0; i < 7; i++)
    made.push(
      await fx.event({
        title: `Feed filler ${i} ${tok}`,
        start_date: day(10 + i),
        end_date: day(10 + i, '12:00:00'),
      }),
    );
  made.push(
    await fx.event({
      title: `Feed draft ${tok}`,
      status: 'draft',
      start_date: day(20),
      end_date: day(20, '11:00:00'),
    }),
  );
});

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

describe('GET /events.ics', () => {
  it('holds exactly the JSON list’s events across its pages, at the same instants, without paging', async () => {
    // This file's month holds only its events: ten public ones and a protected one (a draft is not listed).
    const query = window;
    const json = await allPages(query);
    expect(json.length).toBe(11);
    const { events } = await feed(`/events.ics?${q(query)}`);
    expect(events.map((v) => idOfUid(v.getFirstPropertyValue('uid')))).toEqual(json.map((e) => e.id));
    for (const [i, v] of events.entries()) {
      const e = json[i]!;
      if (e.all_day) {
        expect(String(v.getFirstPropertyValue('dtstart'))).toBe(String(e.start_date).slice(0, 10));
      } else {
        expect(instant(v, 'dtstart')).toBe(e.utc_start_date);
        expect(instant(v, 'dtend')).toBe(e.utc_end_date);
      }
      expect(v.getFirstPropertyValue('summary')).toBe(String(e.title).replace(/&#8217;/g, '’'));
    }
  });

  it('writes the calendar, the event’s zone, the place and the categories RFC 5545’s way', async () => {
    const { cal, events, text } = await feed(`/events.ics?${q(window)}`);
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    expect(cal.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    expect(text).toMatch(/\r\nX-WR-CALNAME:[^\r]*\r\n/);
    expect(text).toMatch(/\r\nREFRESH-INTERVAL;VALUE=DURATION:PT\d+[MS]\r\n/);
    const byId = new Map(events.map((v) => [idOfUid(v.getFirstPropertyValue('uid')), v]));
    const trio = byId.get(made[0]!.id)!;
    expect(trio.getFirstPropertyValue('description')).toBe('Bring; your, own \\ chairs.');
    expect(trio.getFirstPropertyValue('location')).toBe(`Feed Hall ${tok}, 1 High St, Lisbon`);
    expect(trio.getAllProperties('categories').flatMap((p) => p.getValues())).toEqual([`feedcat${tok}`]);
    const tokyo = byId.get(made[2]!.id)!;
    expect(tokyo.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('Asia/Tokyo');
    expect(cal.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'))).toContain(
      'Asia/Tokyo',
    );
    const allDay = byId.get(made[1]!.id)!;
    expect(text).toContain(`DTSTART;VALUE=DATE:${day(5).slice(0, 10).replaceAll('-', '')}`);
    expect(String(allDay.getFirstPropertyValue('dtend'))).toBe(day(7).slice(0, 10));
    // What the JSON blanks for an anonymous caller, the feed leaves out.
    expect(byId.get(made[3]!.id)?.getFirstProperty('description')).toBeNull();
    expect(byId.has(made.at(-1)!.id)).toBe(false);
  });

  it('takes the list’s filters: categories, venue, featured, and an editor’s drafts with status', async () => {
    const ids = async (o: Record<string, string>, as?: 'editor') => {
      const headers: Record<string, string> = as ? { Authorization: t.auth[as] } : {};
      return (await feed(`/events.ics?${q({ ...window, ...o })}`, headers)).events.map((v) =>
        idOfUid(v.getFirstPropertyValue('uid')),
      );
    };
    expect(await ids({ categories: category })).toEqual([made[0]!.id, made[2]!.id]);
    // made[3] is password-protected: its venue is blanked for an anonymous caller, so its venue filter does not match
    // it (issue 30); it does with its password, and for an editor.
    expect(await ids({ venue: String(venueId) })).toEqual([made[0]!.id]);
    expect(await ids({ venue: String(venueId), password: 'sesame' })).toEqual([made[0]!.id, made[3]!.id]);
    expect(await ids({ venue: String(venueId) }, 'editor')).toEqual([made[0]!.id, made[3]!.id]);
    expect(await ids({ featured: 'true', search: tok })).toEqual([made[1]!.id]);
    expect(await ids({ status: 'draft', search: tok }, 'editor')).toEqual([made.at(-1)!.id]);
  });

  it('agrees with the JSON list over random filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            from: fc.integer({ min: 1, max: 14 }),
            days: fc.integer({ min: 1, max: 14 }),
            search: fc.constantFrom(tok, `filler ${tok}`, `trio ${tok}`, 'nothing-like-this'),
            categories: fc.constant(category),
            featured: fc.constantFrom('true', 'false'),
            as: fc.constant('editor' as const),
          },
          { requiredKeys: ['from', 'days', 'search'] },
        ),
        async ({ from, days, search, categories, featured, as }) => {
          const query = {
            start_date: day(from, '00:00:00'),
            end_date: day(Math.min(28, from + days), '23:59:59'),
            search,
            categories,
            featured,
          };
          const json = await allPages(query, as);
          const headers: Record<string, string> = as ? { Authorization: t.auth[as] } : {};
          const { events } = await feed(`/events.ics?${q(query)}`, headers);
          expect(events.map((v) => idOfUid(v.getFirstPropertyValue('uid')))).toEqual(json.map((e) => e.id));
          for (const [i, v] of events.entries())
            if (!json[i]!.all_day) expect(instant(v, 'dtstart')).toBe(json[i]!.utc_start_date);
        },
      ),
      { numRuns: 12, seed: 2034 },
    );
  });

  it('is cached as JSON answers are: ETag and 304, gzip, and a write shows within a second', async () => {
    const path = `/events.ics?${q({ ...window, search: `filler ${tok}` })}`;
    const first = await feed(path);
    const etag = first.res.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.res.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    const again = await fetch(`${t.gateway.url}${NS}${path}`, { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    // A stored answer's gzip is made off the request path: the first callers may get it as it is.
    const gz = await vi.waitFor(async () => {
      const r = await rawGet(path, { 'Accept-Encoding': 'gzip' });
      expect(r.headers['content-encoding']).toBe('gzip');
      return r;
    });
    expect(gunzipSync(gz.body).toString()).toBe(first.text);
    const renamed = await call<EventRecord>(t, 'PATCH', `/events/${made[4]!.id}`, {
      as: 'admin',
      body: { title: `Feed filler renamed ${tok}` },
    });
    expect(renamed.status).toBe(200);
    const after = await eventually(
      () => feed(path),
      (f) => f.text.includes(`SUMMARY:Feed filler renamed ${tok}`),
    );
    expect(after.text).toContain(`SUMMARY:Feed filler renamed ${tok}`);
  });

  it('is dropped with a venue it shows: a venue write drops no event list, only what carries its tag', async () => {
    const path = `/events.ics?${q({ ...window, search: `trio ${tok}` })}`;
    const before = await feed(path);
    expect(before.text).toContain(`LOCATION:Feed Hall ${tok}`);
    // Stored: two reads in a row answer it with the same ETag (another file's write may have it refilling, its
    // previous answer sent without one meanwhile).
    let etag: string | null = null;
    const stored = await eventually(
      async () => {
        const now = (await feed(path)).res.headers.get('etag');
        const same = now !== null && now === etag;
        etag = now;
        return same;
      },
      (same) => same,
    );
    expect(stored).toBe(true);
    const moved = await call(t, 'POST', `/venues/${venueId}`, {
      as: 'admin',
      body: { venue: `Feed Barn ${tok}` },
    });
    expect(moved.status).toBe(200);
    const after = await eventually(
      () => feed(path),
      (f) => f.text.includes(`LOCATION:Feed Barn ${tok}`),
    );
    expect(after.text).toContain(`LOCATION:Feed Barn ${tok}`);
  });
});

describe('changes a subscriber sees', () => {
  it('keep the UID when an event is renamed or rescheduled, and raise its SEQUENCE', async () => {
    const ev = await fx.event({
      title: `Feed moving ${tok}`,
      start_date: day(22),
      end_date: day(22, '11:00:00'),
    });
    const one = async () => (await feed(`/events/${ev.id}.ics`)).events[0]!;
    const before = await one();
    expect(before.getFirstPropertyValue('uid')).toBe(uidOf(ev.id));
    // SEQUENCE counts the seconds of the event's last change: the next change comes a second later at least.
    await new Promise((r) => setTimeout(r, 1100));
    const res = await call(t, 'PATCH', `/events/${ev.id}`, {
      as: 'admin',
      body: { title: `Feed moved ${tok}`, start_date: day(23), end_date: day(23, '11:00:00') },
    });
    expect(res.status).toBe(200);
    const after = await eventually(one, (v) => v.getFirstPropertyValue('summary') === `Feed moved ${tok}`);
    expect(after.getFirstPropertyValue('uid')).toBe(uidOf(ev.id));
    expect(after.getFirstPropertyValue('summary')).toBe(`Feed moved ${tok}`);
    expect(Number(after.getFirstPropertyValue('sequence'))).toBeGreaterThan(
      Number(before.getFirstPropertyValue('sequence')),
    );
  });

  it('show a cancellation in the JSON, its JSON-LD and the feed', async () => {
    const ev = await fx.event({
      title: `Feed cancel ${tok}`,
      start_date: day(24),
      end_date: day(24, '11:00:00'),
    });
    const res = await call<EventRecord>(t, 'PATCH', `/events/${ev.id}`, {
      as: 'admin',
      body: { event_status: 'canceled', event_status_reason: 'Storm' },
    });
    expect(res.status).toBe(200);
    const read = (await call<EventRecord>(t, 'GET', `/events/${ev.id}`)).body;
    expect(read.event_status).toBe('canceled');
    expect((read.json_ld as Json).eventStatus).toBe('https://schema.org/EventCancelled');
    const { events } = await feed(`/events.ics?${q({ ...window, search: `cancel ${tok}` })}`);
    expect(events.map((v) => v.getFirstPropertyValue('status'))).toEqual(['CANCELLED']);
  });
});

describe('GET /events/{id}.ics', () => {
  it('is one event, and refuses what the caller may not read as the JSON read does', async () => {
    const { events } = await feed(`/events/${made[0]!.id}.ics`);
    expect(events.map((v) => v.getFirstPropertyValue('uid'))).toEqual([uidOf(made[0]!.id)]);
    const draft = made.at(-1)!.id;
    const json = await call(t, 'GET', `/events/${draft}`);
    const ics = await call(t, 'GET', `/events/${draft}.ics`);
    expect([ics.status, ics.body.code]).toEqual([json.status, json.body.code]);
    expectError(await call(t, 'GET', '/events/999999999.ics'), 404, 'rest-event-not-found');
  });
});
