// GET /events/{id} and /events/by-slug/{slug}: TEC's record types, json_ld, access rules and error codes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recordFieldsOf } from '../../src/mapping/codec.ts';
import { call, openTarget, requestsDuring, type Target } from '../harness.ts';
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
const day = monthOf(2031, 5);
let t: Target;
let fx: Fixtures;
let full: EventRecord;
let bare: EventRecord;

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  full = await fx.event({
    title: `Read full ${tok}`,
    description: `A long evening ${tok}.`,
    excerpt: `Short ${tok}`,
    start_date: '2031-05-04 09:05:00',
    end_date: '2031-05-04 18:30:07',
    timezone: 'Europe/Madrid',
    cost: '25',
    website: 'https://example.org/read',
    featured: true,
    categories: [`Readcat ${tok}`],
    tags: [`Readtag ${tok}`],
    venue: { venue: `Read hall ${tok}`, address: '1 Main St', city: 'Madrid', country: 'Spain' },
    organizer: [{ organizer: `Read org one ${tok}` }, { organizer: `Read org two ${tok}` }],
  });
  bare = await fx.event({ title: `Read bare ${tok}`, start_date: day(6), end_date: day(6, '11:00:00') });
});

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

const get = (path: string, as?: 'editor' | 'admin' | 'subscriber') =>
  call<EventRecord>(t, 'GET', path, { as });

describe('the full record', () => {
  it('answers every field with the JSON type TEC emits', async () => {
    const res = await get(`/events/${full.id}`);
    expect(res.status).toBe(200);
    const ev = res.body as Json;
    expect(ev.id).toBe(full.id);
    expect(typeof ev.author).toBe('string');
    expect(ev.author).toMatch(/^\d+$/);
    expect(ev.status).toBe('publish');
    expect(ev.title).toBe(`Read full ${tok}`);
    expect(ev.slug).toBe(full.slug);
    expect(ev.rest_url).toBe(`${t.api}/events/${full.id}`);
    expect(ev.global_id_lineage).toEqual([ev.global_id]);
    for (const k of [
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'description',
      'excerpt',
      'timezone_abbr',
      'cost',
    ]) {
      expect(typeof ev[k], k).toBe('string');
    }
    expect(ev.description).toContain(`A long evening ${tok}.`);
    expect(ev.image).toBe(false);
    expect(ev.all_day).toBe(false);
    expect(ev.featured).toBe(true);
    for (const k of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky'])
      expect(typeof ev[k], k).toBe('boolean');
    expect(ev.website).toBe('https://example.org/read');
    expect(ev.custom_fields).toEqual([]);
  });

  it('gives local and UTC dates with zero-padded string details', async () => {
    const ev = (await get(`/events/${full.id}`)).body as Json;
    expect(ev.start_date).toBe('2031-05-04 09:05:00');
    expect(ev.end_date).toBe('2031-05-04 18:30:07');
    expect(ev.start_date_details).toEqual({
      year: '2031',
      month: '05',
      day: '04',
      hour: '09',
      minutes: '05',
      seconds: '00',
    });
    expect(ev.end_date_details).toEqual({
      year: '2031',
      month: '05',
      day: '04',
      hour: '18',
      minutes: '30',
      seconds: '07',
    });
    expect(ev.timezone).toBe('Europe/Madrid');
    // Madrid is UTC+2 in May.
    expect(ev.utc_start_date).toBe('2031-05-04 07:05:00');
    expect(ev.utc_end_date).toBe('2031-05-04 16:30:07');
    expect(ev.utc_start_date_details).toEqual({
      year: '2031',
      month: '05',
      day: '04',
      hour: '07',
      minutes: '05',
      seconds: '00',
    });
  });

  it('embeds one venue as an object, organizers as a list and terms as objects', async () => {
    const ev = (await get(`/events/${full.id}`)).body as Json;
    const venue = ev.venue as Json;
    expect(venue.venue).toBe(`Read hall ${tok}`);
    expect(typeof venue.id).toBe('number');
    expect(venue.city).toBe('Madrid');
    const organizers = ev.organizer as Json[];
    expect(organizers.map((o) => o.organizer)).toEqual([`Read org one ${tok}`, `Read org two ${tok}`]);
    const [cat] = ev.categories as Json[];
    expect(cat?.name).toBe(`Readcat ${tok}`);
    expect(typeof cat?.id).toBe('number');
    const [tag] = ev.tags as Json[];
    expect(tag?.name).toBe(`Readtag ${tok}`);
  });

  it('answers venue [] and organizer [] for an event without them', async () => {
    const ev = (await get(`/events/${bare.id}`)).body as Json;
    expect(ev.venue).toEqual([]);
    expect(ev.organizer).toEqual([]);
    expect(ev.categories).toEqual([]);
    expect(ev.cost).toBe('');
  });

  it('gives cost as a string and cost_details with the four keys and the values list', async () => {
    const ev = (await get(`/events/${full.id}`)).body as Json;
    expect(ev.cost).toContain('25');
    const details = ev.cost_details as Json;
    expect(Object.keys(details)).toEqual(['currency_symbol', 'currency_code', 'currency_position', 'values']);
    expect(details.values).toEqual(['25']);
  });

  it('adds json_ld on single reads only', async () => {
    const single = (await get(`/events/${full.id}`)).body as Json;
    expect((single.json_ld as Json)['@type']).toBe('Event');
    // TEC's order: custom_fields, then our additions (event status, recurrence), then json_ld, last.
    const keys = Object.keys(single);
    expect(keys.at(-1)).toBe('json_ld');
    expect(keys.slice(keys.indexOf('custom_fields') + 1, -1)).toEqual([
      'event_status',
      'event_status_reason',
      'is_recurring',
      'series_id',
      'original_start_utc',
      'recurrence',
    ]);
    expect(full).not.toHaveProperty('json_ld');
    const listed = await call(t, 'GET', `/events?include=${full.id}`);
    const [item] = listed.body.events as Json[];
    expect(item?.id).toBe(full.id);
    expect(item).not.toHaveProperty('json_ld');
  });

  it('asks WordPress for the fields a record is made of, and answers as from the whole post', async () => {
    // A subscriber's read is not stored: each read below is WordPress's.
    const path = `/wp/v2/${t.mapping.event.restBase}/${full.id}`;
    let cut: Json = {};
    const calls = await requestsDuring(t.gateway, async () => {
      cut = (await get(`/events/${full.id}`, 'subscriber')).body as Json;
    });
    const reads = calls.filter((req) => req.path === path);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.query?._fields).toBe(recordFieldsOf(t.mapping, 'event'));
    expect(String(reads[0]!.query?._fields).split(',')).not.toContain('_links');
    // The same read with the whole post, `_links` and all, as the gateway read it before.
    const wp = t.gateway.deps.wp;
    const original = wp.request.bind(wp);
    const spy = vi.spyOn(wp, 'request').mockImplementation((req) => {
      if (req.path !== path) return original(req);
      const { _fields, ...query } = req.query ?? {};
      return original({ ...req, query });
    });
    try {
      const whole = await get(`/events/${full.id}`, 'subscriber');
      expect(whole.status).toBe(200);
      expect(cut).toEqual(whole.body);
      expect(Object.keys(cut)).toEqual(Object.keys(whole.body));
    } finally {
      spy.mockRestore();
    }
  });

  it('answers the same record by slug', async () => {
    const byId = (await get(`/events/${full.id}`)).body as Json;
    const bySlug = await get(`/events/by-slug/${full.slug}`);
    expect(bySlug.status).toBe(200);
    expect({ ...bySlug.body, modified: '', modified_utc: '' }).toEqual({
      ...byId,
      modified: '',
      modified_utc: '',
    });
  });
});

describe('unknown ids and slugs', () => {
  it('answers 404 rest-event-not-found for an unknown id and for id 0, saying the event does not exist', async () => {
    expectError(await get('/events/99999999'), 404, 'rest-event-not-found');
    const zero = await get('/events/0');
    expectError(zero, 404, 'rest-event-not-found');
    expect(zero.body.message).toContain('does not exist');
  });

  it('answers 400 rest-invalid-event-id for the id of a venue', async () => {
    const venueId = ((await get(`/events/${full.id}`)).body.venue as Json).id;
    expectError(await get(`/events/${venueId}`), 400, 'rest-invalid-event-id');
  });

  it('answers 404 rest_no_route for a non-numeric id', async () => {
    expectError(await get('/events/abc'), 404, 'rest_no_route');
  });

  it('answers 400 for an unknown slug', async () => {
    expectError(await get(`/events/by-slug/no-such-${tok}`), 400, 'rest_invalid_param');
  });
});

describe('access rules', () => {
  it('hides a draft from anonymous callers and subscribers with 403 event-not-accessible, not from an editor', async () => {
    const draft = await fx.event({
      title: `Read draft ${tok}`,
      start_date: day(8),
      end_date: day(8, '11:00:00'),
      status: 'draft',
    });
    expectError(await get(`/events/${draft.id}`), 403, 'event-not-accessible');
    expectError(await get(`/events/${draft.id}`, 'subscriber'), 403, 'event-not-accessible');
    const editor = await get(`/events/${draft.id}`, 'editor');
    expect(editor.status).toBe(200);
    expect(editor.body.status).toBe('draft');
  });

  it('answers 403 event-no-longer-available for a trashed event to who may edit it; anyone else cannot tell it from a draft', async () => {
    const gone = await fx.event({
      title: `Read trash ${tok}`,
      start_date: day(9),
      end_date: day(9, '11:00:00'),
    });
    await editUpstream(t, gone.id, {}, 'DELETE');
    expectError(await get(`/events/${gone.id}`), 403, 'event-not-accessible');
    expectError(await get(`/events/${gone.id}`, 'subscriber'), 403, 'event-not-accessible');
    expectError(await get(`/events/${gone.id}`, 'admin'), 403, 'event-no-longer-available');
  });

  it('ignores a password sent for an event that has none, on both roots (TEC; WordPress would refuse it)', async () => {
    const plain = await fx.event({
      title: `Read plain ${tok}`,
      description: `Open plans ${tok}`,
      start_date: day(11),
      end_date: day(11, '11:00:00'),
    });
    for (const root of [t.api, `${t.gateway.url}/es/wp-json/calendar/events/v1`]) {
      const res = await fetch(`${root}/events/${plain.id}?password=whatever`);
      expect(res.status, root).toBe(200);
      expect(((await res.json()) as Json).description).toContain(`Open plans ${tok}`);
    }
  });

  it('asks for the password of a protected event and answers the full record with the right one', async () => {
    const locked = await fx.event({
      title: `Read locked ${tok}`,
      description: `Secret plans ${tok}`,
      start_date: day(10),
      end_date: day(10, '11:00:00'),
    });
    await editUpstream(t, locked.id, { password: 'opensesame' });
    expectError(await get(`/events/${locked.id}`), 403, 'event-password-protected');
    expectError(await get(`/events/${locked.id}?password=wrong`), 403, 'event-password-protected');
    const open = await get(`/events/${locked.id}?password=opensesame`);
    expect(open.status).toBe(200);
    expect(open.body.description).toContain(`Secret plans ${tok}`);
    // Whoever may edit it reads it in full with context=edit; a subscriber's context=edit changes nothing.
    const editor = await get(`/events/${locked.id}?context=edit`, 'editor');
    expect(editor.status).toBe(200);
    expect(editor.body.description).toContain(`Secret plans ${tok}`);
    expectError(
      await get(`/events/${locked.id}?context=edit`, 'subscriber'),
      403,
      'event-password-protected',
    );
    expectError(await get(`/events/${locked.id}?context=edit`), 403, 'event-password-protected');
  });
});
