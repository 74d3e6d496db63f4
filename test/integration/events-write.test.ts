// POST/PUT/PATCH/DELETE on events: TEC's create rules, partial updates, trash, and all-or-nothing nested writes.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Target } from '../harness.ts';
import { type EventRecord, expectError, Fixtures, type Json, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2031, 7);
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

const base = (title: string, d: number): Json => ({
  title: `${title} ${tok}`,
  start_date: day(d),
  end_date: day(d, '12:00:00'),
});
const post = (path: string, body: unknown, as: 'admin' | 'editor' | 'contributor' | 'subscriber' = 'admin') =>
  call<EventRecord>(t, 'POST', path, { as, body });

describe('create', () => {
  it('answers 201 with the record, without json_ld', async () => {
    const res = await post('/events', { ...base('Created', 1), description: 'Hello.' });
    expect(res.status).toBe(201);
    fx.ids.push(res.body.id);
    expect(typeof res.body.id).toBe('number');
    expect(res.body.title).toBe(`Created ${tok}`);
    expect(res.body.start_date).toBe(day(1));
    expect(res.body.status).toBe('publish');
    expect(res.body).not.toHaveProperty('json_ld');
  });

  it('renders the title through the_title, as TEC does, on create and on read', async () => {
    const res = await post('/events', { ...base('Created', 3), title: `Gig 2x4 "Live" -- it's ${tok}...` });
    expect(res.status).toBe(201);
    fx.ids.push(res.body.id);
    const want = `Gig 2&#215;4 &#8220;Live&#8221; &#8212; it&#8217;s ${tok}&#8230;`;
    expect(res.body.title).toBe(want);
    expect((await call<EventRecord>(t, 'GET', `/events/${res.body.id}`)).body.title).toBe(want);
  });

  it('accepts a form-encoded body', async () => {
    const res = await call<EventRecord>(t, 'POST', '/events', {
      as: 'admin',
      form: { title: `Form ${tok}`, start_date: day(2), end_date: day(2, '11:00:00') },
    });
    expect(res.status).toBe(201);
    fx.ids.push(res.body.id);
    expect(res.body.title).toBe(`Form ${tok}`);
  });

  it('answers 400 rest_missing_callback_param naming the missing required fields', async () => {
    const res = await post('/events', { description: 'no title' });
    expectError(res, 400, 'rest_missing_callback_param');
    expect([...((res.body.data as Json).params as string[])].sort()).toEqual([
      'end_date',
      'start_date',
      'title',
    ]);
  });

  it.each([
    ['an unparseable start date', { start_date: 'not a date' }, 'start_date'],
    ['an empty title', { title: '' }, 'title'],
    ['an invalid website', { website: 'not a url' }, 'website'],
    ['an unknown timezone', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['an unknown status', { status: 'bogus' }, 'status'],
    ['a non-boolean flag', { featured: 'maybe' }, 'featured'],
    ['a non-integer author', { author: 'someone' }, 'author'],
  ])('refuses %s with 400 rest_invalid_param', async (_name, patch, param) => {
    const res = await post('/events', { ...base('Invalid', 3), ...patch });
    expectError(res, 400, 'rest_invalid_param');
    expect(Object.keys((res.body.data as Json).params as Json)).toContain(param);
  });

  it('reads dates in the given timezone and derives the UTC dates', async () => {
    const ev = await fx.event({ ...base('Tokyo', 4), timezone: 'Asia/Tokyo' });
    expect(ev.start_date).toBe(day(4));
    expect(ev.timezone).toBe('Asia/Tokyo');
    expect(ev.utc_start_date).toBe(day(4, '01:00:00'));
    expect(ev.utc_end_date).toBe(day(4, '03:00:00'));
  });

  it("reads start and end dates with PHP's relative formats: 'next wednesday' on a Wednesday is a week later", async () => {
    // 2031-07-09 is a Wednesday; PHP's strtotime gives the 16th, and the first Friday of August 2031 is the 1st.
    const ev = await fx.event({
      ...base('Relative', 9),
      start_date: '2031-07-09 next wednesday 4pm',
      end_date: 'first friday of august 2031 5pm',
      timezone: 'America/New_York',
    });
    expect(ev.start_date).toBe('2031-07-16 16:00:00');
    expect(ev.end_date).toBe('2031-08-01 17:00:00');
    expect(ev.utc_start_date).toBe('2031-07-16 20:00:00');
  });

  it('reads publication dates in natural language, date in the site zone and date_utc in UTC', async () => {
    const tz = t.gateway.deps.site.timezone;
    const tomorrow = (zone: string) =>
      `${DateTime.now().setZone(zone).plus({ days: 1 }).toFormat('yyyy-MM-dd')} 09:00:00`;
    const local = await fx.event({ ...base('Published tomorrow', 5), date: 'tomorrow 9am' });
    expect(local.date).toBe(tomorrow(tz));
    const utc = await fx.event({ ...base('Published tomorrow UTC', 6), date_utc: 'tomorrow 9am' });
    expect(utc.date_utc).toBe(tomorrow('UTC'));
    const bad = await call(t, 'POST', '/events', {
      as: 'admin',
      body: { ...base('Bad date', 7), date: 'whenever' },
    });
    expectError(bad, 400, 'rest_invalid_param');
    expect(Object.keys((bad.body.data as Json).params as Json)).toEqual(['date']);
  });

  it('reads the currency from the cost, before or after the amount, and stores it as TEC does', async () => {
    // The custom mapping stores no currency: only the amounts are kept there.
    const stores = t.mapping.event.fields.currency_symbol !== undefined;
    const post = await fx.event({ ...base('Postfix cost', 8), cost: '20$' });
    expect(post.cost).toBe(stores ? '20$' : '$20');
    if (stores)
      expect(post.cost_details).toEqual({
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'postfix',
        values: ['20'],
      });
    const range = await fx.event({ ...base('Postfix range', 9), cost: ['0$', '20$', '30$'] });
    expect(range.cost).toBe(stores ? 'Free – 30$' : 'Free – $30');
    expect((range.cost_details as Json).values).toEqual(['0', '20', '30']);
    const updated = await call<EventRecord>(t, 'POST', `/events/${post.id}`, {
      as: 'admin',
      body: { cost: '€15' },
    });
    expect(updated.body.cost).toBe(stores ? '€15' : '$15');
  });

  it.each<[string, Json, string]>([
    ['an unknown author', { author: 99999999 }, 'author'],
    ['an empty author', { author: '' }, 'author'],
    ['an organizer without its name', { organizer: [{ phone: '555' }] }, 'organizer'],
    ['a venue without its name', { venue: { city: 'Nowhere' } }, 'venue'],
  ])('names the parameter of %s in data.params', async (_label, bad, param) => {
    const res = await call(t, 'POST', '/events', { as: 'admin', body: { ...base('Refused', 10), ...bad } });
    expectError(res, 400, 'rest_invalid_param');
    expect(Object.keys((res.body.data as Json).params as Json)).toEqual([param]);
  });

  it('snaps an all-day event to the whole day', async () => {
    const ev = await fx.event({
      title: `All day ${tok}`,
      start_date: day(5, '15:00:00'),
      end_date: day(6, '09:00:00'),
      all_day: true,
    });
    expect(ev.all_day).toBe(true);
    expect(ev.start_date).toBe(day(5, '00:00:00'));
    expect(ev.end_date).toBe(day(6, '23:59:59'));
  });

  it('sets an end before the start equal to the start', async () => {
    const ev = await fx.event({
      title: `Backwards ${tok}`,
      start_date: day(7, '15:00:00'),
      end_date: day(7, '09:00:00'),
    });
    expect(ev.end_date).toBe(day(7, '15:00:00'));
  });

  it('creates a nested venue once and reuses it for an identical second create', async () => {
    const venue = { venue: `Nested hall ${tok}`, address: '5 Side St', city: 'Lyon', country: 'France' };
    const first = await fx.event({ ...base('Venue one', 8), venue });
    const second = await fx.event({ ...base('Venue two', 9), venue });
    const v1 = first.venue as Json;
    expect(v1.venue).toBe(venue.venue);
    expect(v1.city).toBe('Lyon');
    expect((second.venue as Json).id).toBe(v1.id);
    const third = await fx.event({ ...base('Venue by id', 10), venue: v1.id });
    expect((third.venue as Json).id).toBe(v1.id);
    // MySQL compares names case-insensitively, and TEC's duplicate check relies on it.
    const shouted = { ...venue, venue: venue.venue.toUpperCase(), city: 'LYON' };
    const fourth = await fx.event({ ...base('Venue shouted', 11), venue: shouted });
    expect((fourth.venue as Json).id).toBe(v1.id);
  });

  it('checks a nested venue against the venue create arguments and stores it as POST /venues would', async () => {
    const bad = await post('/events', {
      ...base('Bad venue', 13),
      venue: { venue: `Web ${tok}`, website: 'not a url' },
    });
    expectError(bad, 400, 'rest_invalid_param');
    expect((bad.body.data as Json).params).toEqual({
      venue: expect.stringMatching(/^The new venue was refused: website must be a URL/),
    });
    const found = await call<Json>(t, 'GET', `/venues?search=${encodeURIComponent(`Web ${tok}`)}`, {
      as: 'admin',
    });
    expect(found.body.venues ?? []).toEqual([]);

    const ev = await fx.event({
      ...base('US venue', 14),
      venue: { venue: `Hall US ${tok}`, country: 'United States', state: 'OH', show_map: false },
    });
    const v = ev.venue as Json;
    // TEC derives stateprovince from the state for US venues, and keeps show_map off when sent off.
    const want = { state: 'OH', stateprovince: 'OH', show_map: false };
    const mapped = Object.entries(want).filter(([k]) => k in t.mapping.venue.fields);
    expect(mapped.length).toBeGreaterThan(0);
    expect(v).toMatchObject(Object.fromEntries(mapped));
  });

  it('creates nested organizers in order and links organizers by id', async () => {
    const ev = await fx.event({
      ...base('Organizers', 11),
      organizer: [
        { organizer: `First org ${tok}`, email: 'first@example.org' },
        { organizer: `Second org ${tok}` },
      ],
    });
    const orgs = ev.organizer as Json[];
    expect(orgs.map((o) => o.organizer)).toEqual([`First org ${tok}`, `Second org ${tok}`]);
    const byId = await fx.event({ ...base('Organizer ids', 12), organizer: [orgs[1]?.id, orgs[0]?.id] });
    expect((byId.organizer as Json[]).map((o) => o.id)).toEqual([orgs[1]?.id, orgs[0]?.id]);
  });

  it('keeps the order of organizers sent on update, also when one of them was linked before', async () => {
    const ev = await fx.event({
      ...base('Organizer order', 11),
      organizer: [{ organizer: `Kept org ${tok}` }, { organizer: `Added org ${tok}` }],
    });
    const [kept, added] = (ev.organizer as Json[]).map((o) => o.id);
    const one = await call<EventRecord>(t, 'PATCH', `/events/${ev.id}`, {
      as: 'admin',
      body: { organizer: [kept] },
    });
    expect((one.body.organizer as Json[]).map((o) => o.id)).toEqual([kept]);
    // WordPress alone would keep the existing row first and answer [kept, added].
    const both = await call<EventRecord>(t, 'PATCH', `/events/${ev.id}`, {
      as: 'admin',
      body: { organizer: [added, kept] },
    });
    expect(both.status).toBe(200);
    expect((both.body.organizer as Json[]).map((o) => o.id)).toEqual([added, kept]);
    const read = await call<EventRecord>(t, 'GET', `/events/${ev.id}`);
    expect((read.body.organizer as Json[]).map((o) => o.id)).toEqual([added, kept]);
  });

  it('takes categories and tags by name (creating them), by id and by slug', async () => {
    const named = await fx.event({
      ...base('Terms', 13),
      categories: [`Wcat ${tok}`],
      tags: [`Wtag ${tok}`],
    });
    const [cat] = named.categories as Json[];
    const [tag] = named.tags as Json[];
    expect(cat?.name).toBe(`Wcat ${tok}`);
    expect(tag?.name).toBe(`Wtag ${tok}`);
    const byId = await fx.event({ ...base('Terms by id', 14), categories: [cat?.id], tags: [tag?.id] });
    expect((byId.categories as Json[]).map((c) => c.id)).toEqual([cat?.id]);
    expect((byId.tags as Json[]).map((c) => c.id)).toEqual([tag?.id]);
    const bySlug = await fx.event({
      ...base('Terms by slug', 15),
      categories: String(cat?.slug),
      tags: String(tag?.slug),
    });
    expect((bySlug.categories as Json[]).map((c) => c.id)).toEqual([cat?.id]);
    expect((bySlug.tags as Json[]).map((c) => c.id)).toEqual([tag?.id]);
  });

  it('scales a contributor’s publish to pending and an omitted status to draft', async () => {
    const asked = await fx.event({ ...base('Contributor publish', 16), status: 'publish' }, 'contributor');
    expect(asked.status).toBe('pending');
    const omitted = await fx.event(base('Contributor default', 17), 'contributor');
    expect(omitted.status).toBe('draft');
  });

  it('answers 401 to anonymous callers and 403 to subscribers', async () => {
    expectError(await call(t, 'POST', '/events', { body: base('Anonymous', 18) }), 401, 'rest_forbidden');
    expectError(await post('/events', base('Subscriber', 18), 'subscriber'), 403, 'rest_forbidden');
  });
});

describe('update', () => {
  it.each(['POST', 'PUT', 'PATCH'])(
    'changes only the fields sent with %s by id, and a GET right after shows it',
    async (method) => {
      const ev = await fx.event({
        ...base(`Upd ${method}`, 19),
        description: `Keep me ${tok}`,
        featured: true,
        cost: '12',
      });
      const res = await call<EventRecord>(t, method, `/events/${ev.id}`, {
        as: 'admin',
        body: { title: `Renamed ${method} ${tok}` },
      });
      expect(res.status).toBe(200);
      expect(res.body.title).toBe(`Renamed ${method} ${tok}`);
      const after = await call<EventRecord>(t, 'GET', `/events/${ev.id}`);
      expect(after.body.title).toBe(`Renamed ${method} ${tok}`);
      expect(after.body.featured).toBe(true);
      expect(after.body.description).toContain(`Keep me ${tok}`);
      expect(after.body.cost).toContain('12');
      expect(after.body.start_date).toBe(day(19));
    },
  );

  it('updates by slug, and a list right after shows the change', async () => {
    const ev = await fx.event({ ...base('Slugged', 20), featured: true });
    const res = await call<EventRecord>(t, 'PATCH', `/events/by-slug/${ev.slug}`, {
      as: 'admin',
      body: { start_date: day(21) },
    });
    expect(res.status).toBe(200);
    expect(res.body.start_date).toBe(day(21));
    expect(res.body.featured).toBe(true);
    const listed = await call(
      t,
      'GET',
      `/events?start_date=2031-07-21&end_date=2031-07-21&search=Slugged ${tok}`,
    );
    expect((listed.body.events as Json[]).map((e) => e.id)).toEqual([ev.id]);
  });

  it('answers 404 rest-event-not-found when updating an unknown id', async () => {
    expectError(await post('/events/99999999', { title: 'x' }), 404, 'rest-event-not-found');
  });
});

describe('event status', () => {
  const ld = (r: EventRecord) => r.json_ld as Json;

  it('is scheduled when none was set, in the record and its JSON-LD', async () => {
    const ev = await fx.event(base('Status default', 20));
    const read = (await call<EventRecord>(t, 'GET', `/events/${ev.id}`)).body;
    expect(read.event_status).toBe('scheduled');
    expect(read.event_status_reason).toBe('');
    expect(ld(read).eventStatus).toBe('https://schema.org/EventScheduled');
  });

  it('stores a cancellation with its reason, shown in the record, the list and the JSON-LD', async () => {
    const res = await post('/events', {
      ...base('Status canceled', 21),
      event_status: 'canceled',
      event_status_reason: `Storm ${tok}`,
    });
    expect(res.status).toBe(201);
    fx.ids.push(res.body.id);
    expect(res.body.event_status).toBe('canceled');
    expect(res.body.event_status_reason).toBe(`Storm ${tok}`);
    const read = (await call<EventRecord>(t, 'GET', `/events/${res.body.id}`)).body;
    expect(read.event_status).toBe('canceled');
    expect(ld(read).eventStatus).toBe('https://schema.org/EventCancelled');
    const q = new URLSearchParams({ search: `canceled ${tok}`, start_date: day(21), end_date: day(22) });
    const list = await call<{ events: EventRecord[] }>(t, 'GET', `/events?${q}`);
    expect(list.body.events.map((e) => [e.id, e.event_status])).toEqual([[res.body.id, 'canceled']]);
  });

  it('changes on update alone, keeping the other fields, and postponed is EventPostponed', async () => {
    const ev = await fx.event({ ...base('Status upd', 22), event_status: 'canceled', featured: true });
    const res = await call<EventRecord>(t, 'PATCH', `/events/${ev.id}`, {
      as: 'admin',
      body: { event_status: 'postponed' },
    });
    expect(res.status).toBe(200);
    const read = (await call<EventRecord>(t, 'GET', `/events/${ev.id}`)).body;
    expect([read.event_status, read.featured]).toEqual(['postponed', true]);
    expect(ld(read).eventStatus).toBe('https://schema.org/EventPostponed');
  });

  it("refuses a status that is not TEC's with 400 naming event_status", async () => {
    const res = await post('/events', { ...base('Status bad', 23), event_status: 'cancelled' });
    expectError(res, 400, 'rest_invalid_param');
    expect(Object.keys((res.body.data as Json).params as Json)).toEqual(['event_status']);
  });
});

describe('delete', () => {
  it('moves an event to the trash with 200, then answers 410 event-is-in-trash', async () => {
    const ev = await fx.event(base('Deleted', 22));
    const first = await call<EventRecord>(t, 'DELETE', `/events/${ev.id}`, { as: 'admin' });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('trash');
    expect(first.body).not.toHaveProperty('json_ld');
    expectError(await call(t, 'DELETE', `/events/${ev.id}`, { as: 'admin' }), 410, 'event-is-in-trash');
    expectError(await call(t, 'GET', `/events/${ev.id}`, { as: 'admin' }), 403, 'event-no-longer-available');
    expectError(await call(t, 'GET', `/events/${ev.id}`), 403, 'event-not-accessible');
  });

  it('deletes by slug', async () => {
    const ev = await fx.event(base('Deleted by slug', 23));
    const res = await call<EventRecord>(t, 'DELETE', `/events/by-slug/${ev.slug}`, { as: 'admin' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('trash');
  });

  it('answers 401 to an anonymous delete and leaves the event alone', async () => {
    const ev = await fx.event(base('Kept', 24));
    expect((await call(t, 'DELETE', `/events/${ev.id}`)).status).toBe(401);
    expect((await call<EventRecord>(t, 'GET', `/events/${ev.id}`)).body.status).toBe('publish');
  });
});

describe('all-or-nothing writes', () => {
  it('leaves no venue behind when WordPress refuses the event after the venue was created', async () => {
    const name = `Orphan hall ${tok}`;
    const res = await post('/events', {
      ...base('Refused', 25),
      author: 987654,
      venue: { venue: name, city: 'Oslo' },
    });
    expect(res.status).toBe(400);
    const venues = await fetch(
      `${t.upstream}/wp/v2/${t.mapping.venue.restBase}?search=${encodeURIComponent(name)}&status=any`,
      {
        headers: { Authorization: t.auth.admin },
      },
    ).then((r) => r.json());
    expect(venues).toEqual([]);
  });
});
