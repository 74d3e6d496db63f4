// The typed client (`@calendar-gateway/client`, from its source) against the gateway, on both upstreams: lists and
// paging, filters, an application-password create with a nested venue, and errors as WordPress's body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CalendarApiError,
  type CalendarClient,
  createCalendarClient,
} from '../../packages/client/src/index.ts';
import { readRecord } from '../../src/mapping/codec.ts';
import { occurrenceId } from '../../src/recurrence/ids.ts';
import type { WpPost } from '../../src/wp/types.ts';
import { call, openTarget, type Target } from '../harness.ts';
import { monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2031, 9);
let t: Target;
let anonymous: CalendarClient;
let editor: CalendarClient;
const created: Array<{ kind: 'events' | 'venues'; id: number }> = [];

/** `user:password` of a harness `Authorization: Basic …` value. */
const applicationPassword = (header: string) => {
  const [user, password] = Buffer.from(header.slice('Basic '.length), 'base64').toString().split(':');
  return { user: user!, password: password! };
};

beforeAll(async () => {
  t = await openTarget();
  anonymous = createCalendarClient({ baseUrl: t.api });
  editor = createCalendarClient({
    baseUrl: t.api,
    credentials: { applicationPassword: applicationPassword(t.auth.editor) },
  });
});

afterAll(async () => {
  for (const { kind, id } of created.reverse()) {
    await call(t, 'DELETE', `/${kind}/${id}?force=true`, { as: 'admin' }).catch(() => undefined);
  }
  await t?.close();
});

describe('typed client', () => {
  it('reads a page with its totals, and every page in turn', async () => {
    const query = { start_date: '2000-01-01', per_page: 7 };
    const first = await anonymous.list('/events', query);
    const raw = await call(t, 'GET', '/events?start_date=2000-01-01&per_page=7');
    expect(first.items.map((e) => e.id)).toEqual((raw.body.events as Array<{ id: number }>).map((e) => e.id));
    expect(first.total).toBe(Number(raw.headers.get('X-TEC-Total')));
    expect(first.totalPages).toBe(Number(raw.headers.get('X-TEC-TotalPages')));
    expect(first.totalPages).toBeGreaterThan(1);
    const all = [];
    for await (const event of anonymous.all('/events', query)) all.push(event.id);
    expect(all).toHaveLength(first.total);
    expect(new Set(all).size).toBe(all.length);
  });

  it('sends list arguments as TEC reads them (comma-separated)', async () => {
    const [category] = (await anonymous.list('/categories', { hide_empty: true })).items;
    expect(category).toBeDefined();
    const page = await anonymous.list('/events', {
      start_date: '2000-01-01',
      categories: [category!.id!],
    });
    expect(page.total).toBeGreaterThan(0);
    for (const e of page.items) expect(e.categories?.map((c) => c.id)).toContain(category!.id);
  });

  it('filters by category slug and id alike (the types take ids or slugs, as the API does)', async () => {
    const [category] = (await anonymous.list('/categories', { hide_empty: true })).items;
    const bySlug = await anonymous.list('/events', {
      start_date: '2000-01-01',
      categories: [category!.slug!],
    });
    const mixed = await anonymous.list('/events', {
      start_date: '2000-01-01',
      categories: [category!.slug!, category!.id!],
    });
    const byId = await anonymous.list('/events', { start_date: '2000-01-01', categories: [category!.id!] });
    expect(bySlug.total).toBeGreaterThan(0);
    expect(bySlug.items.map((e) => e.id)).toEqual(byId.items.map((e) => e.id));
    expect(mixed.items.map((e) => e.id)).toEqual(byId.items.map((e) => e.id));
    // WordPress's booleans as text, as a query string carries them.
    const notFeatured = await anonymous.list('/events', { start_date: '2000-01-01', featured: '0' });
    expect(notFeatured.total).toBeGreaterThan(0);
    for (const e of notFeatured.items) expect(e.featured).toBe(false);
  });

  it('creates an event with a nested venue as an editor, and reads it back', async () => {
    const event = await editor.createEvent({
      title: `Client created ${tok}`,
      start_date: day(3),
      end_date: day(3, '12:00:00'),
      venue: { venue: `Client hall ${tok}`, city: 'Porto', country: 'Portugal' },
    });
    created.push({ kind: 'events', id: event.id! });
    const venue = event.venue as { id: number; venue: string } | undefined;
    expect(venue?.venue).toBe(`Client hall ${tok}`);
    created.push({ kind: 'venues', id: venue!.id });
    const read = await anonymous.event(event.id!);
    expect(read.title).toBe(`Client created ${tok}`);
  });

  it('writes a series: recurrence in the create body, scope on an update and a delete', async () => {
    const series = await editor.createEvent({
      title: `Client series ${tok}`,
      start_date: day(2, '19:00:00'),
      end_date: day(2, '21:00:00'),
      timezone: 'UTC',
      recurrence: { rrule: 'FREQ=DAILY;COUNT=5' },
    });
    created.push({ kind: 'events', id: series.id! });
    const at = (d: number) =>
      occurrenceId({
        seriesId: series.id!,
        originalStartMs: Date.parse(`${day(d, '19:00:00').replace(' ', 'T')}Z`),
      })!;
    await editor.updateEvent(at(3), { title: `Client moved ${tok}`, scope: 'this' });
    await editor.deleteEvent(at(4), { scope: 'following' });
    const stored = async (id: number) => {
      const res = await fetch(`${t.upstream}/wp/v2/${t.mapping.event.restBase}/${id}?context=edit`, {
        headers: { Authorization: t.auth.admin },
      });
      const post = (await res.json()) as WpPost;
      return { ...readRecord(t.mapping, 'event', post), status: post.status };
    };
    expect((await stored(series.id!)).recurrence).toBe('RRULE:FREQ=DAILY;COUNT=2');
    await editor.deleteEvent(series.id!, { scope: 'all' });
    expect((await stored(series.id!)).status).toBe('trash');
  });

  it('throws WordPress errors as CalendarApiError, with the failing parameters', async () => {
    const missing = await anonymous.event(987_654_321).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CalendarApiError);
    const raw = await call(t, 'GET', '/events/987654321');
    expect((missing as CalendarApiError).status).toBe(raw.status);
    expect((missing as CalendarApiError).code).toBe(raw.body.code);
    expect((missing as CalendarApiError).data.status).toBe(raw.status);

    const bad = await anonymous.list('/events', { per_page: -3 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(CalendarApiError);
    expect((bad as CalendarApiError).status).toBe(400);
    expect(Object.keys((bad as CalendarApiError).data.params ?? {})).toContain('per_page');

    const refused = await anonymous
      .createEvent({ title: `Anonymous ${tok}`, start_date: day(4), end_date: day(4, '11:00:00') })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CalendarApiError);
    expect((refused as CalendarApiError).status).toBe(401);
  });

  it('links a feed of a list query and an event’s own calendar file, as calendar apps fetch them', async () => {
    const event = await editor.createEvent({
      title: `Client feed ${tok}`,
      start_date: day(6, '20:00:00'),
      end_date: day(6, '22:00:00'),
    });
    created.push({ kind: 'events', id: event.id! });
    const query = { search: `feed ${tok}`, start_date: day(1), end_date: day(28) };
    const url = anonymous.feedUrl(query);
    expect(anonymous.feedUrl(query, { webcal: true })).toBe(url.replace(/^http:/, 'webcal:'));
    for (const u of [url, anonymous.eventFeedUrl(event.id!)]) {
      const res = await fetch(u);
      expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      const text = await res.text();
      expect(text.match(/^UID:/gm)?.length, u).toBe(1);
      expect(text).toContain(`SUMMARY:Client feed ${tok}`);
    }
  });
});
