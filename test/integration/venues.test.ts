// /venues against the project's upstream: the shared venue/organizer behaviour plus venue fields and passwords.
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness.ts';
import { within } from './cache-support.ts';
import type { Json } from './fixtures.ts';
import { idsOf, type LinkedRecord, linkedSuite } from './linked-suite.ts';

const fx = linkedSuite({ kind: 'venue', plural: 'venues', field: 'city' });
const ids = (res: Parameters<typeof idsOf>[0]) => idsOf(res, 'venues');

describe('venue fields', () => {
  const SEARCHED = ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'] as const;
  const byField: Record<string, LinkedRecord> = {};

  beforeAll(async () => {
    for (const [i, f] of SEARCHED.entries()) {
      byField[f] = await fx.create({
        venue: `Field ${i} ${fx.tok}`,
        country: 'Spain',
        [f]: `v${i}${f}${fx.tok}`,
      });
    }
  });

  it.each(SEARCHED.map((f, i) => [f, i] as const))('search matches the %s', async (f, i) => {
    expect(ids(await fx.list(`search=v${i}${f}${fx.tok}`))).toEqual([byField[f]?.id]);
  });

  it('answers every venue key in TEC order, show_map flags and global ids last', async () => {
    const rec = await fx.create({
      venue: `Full ${fx.tok}`,
      description: 'A room.',
      address: '1 Main St',
      city: 'Springfield',
      country: 'United States',
      state: 'IL',
      zip: '62701',
      phone: '+1 555 0100',
      website: 'https://example.com/full',
      show_map: 'false',
      show_map_link: true,
    });
    const res = await fx.call('GET', `/${rec.id}`);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'venue',
      'description',
      'slug',
      'address',
      'city',
      'country',
      'state',
      'zip',
      'phone',
      'website',
      'stateprovince',
      'json_ld',
      'show_map',
      'show_map_link',
      'global_id',
      'global_id_lineage',
    ]);
    expect(res.body.show_map).toBe(false);
    expect(res.body.show_map_link).toBe(true);
    // TEC derives stateprovince from the state for US venues.
    expect(res.body.stateprovince).toBe('IL');
    expect(res.body.website).toBe('https://example.com/full');
  });

  it('derives stateprovince from the province outside the US, and again when the country changes', async () => {
    const rec = await fx.create({
      venue: `Derived ${fx.tok}`,
      country: 'Spain',
      state: 'X',
      province: 'Madrid',
    });
    expect(rec.stateprovince).toBe('Madrid');
    const res = await fx.call('PATCH', `/${rec.id}`, { as: 'admin', body: { country: 'United States' } });
    expect(res.body.stateprovince).toBe('X');
  });

  it('keeps show_map when an update does not send it', async () => {
    const rec = await fx.create({ venue: `Map ${fx.tok}`, show_map: false });
    const res = await fx.call('PATCH', `/${rec.id}`, { as: 'admin', body: { city: 'Bilbao' } });
    expect(res.body.show_map).toBe(false);
    expect(res.body.city).toBe('Bilbao');
  });
});

describe('password-protected venues', () => {
  let locked: Json;

  beforeAll(async () => {
    locked = await fx.upstream('POST', '', {
      title: `Locked ${fx.tok}`,
      content: 'Secret room.',
      status: 'publish',
      password: 'letmein',
      meta: { _VenueCity: `lockcity${fx.tok}`, _VenueAddress: '9 Hidden Rd' },
    });
    fx.created.push(Number(locked.id));
  });

  it('blanks the protected fields for callers without the password, on reads and in lists', async () => {
    const one = await fx.call('GET', `/${locked.id}`);
    expect(one.status).toBe(200);
    // Unlike TEC (whose list blanks the key `venue` everywhere), the name stays, as an event's title does.
    expect(one.body.venue).toBe(`Locked ${fx.tok}`);
    expect(one.body.city ?? '').toBe('');
    expect(one.body.address ?? '').toBe('');
    expect(one.body.description ?? '').toBe('');
    expect(JSON.stringify(one.body)).not.toContain('Hidden');
    // Written in the WordPress admin (no notification): lists see it within the catalog's check interval (3 s).
    await within(5_000, async () => {
      const listed = await fx.list(`search=${encodeURIComponent(`Locked ${fx.tok}`)}`);
      expect(JSON.stringify(listed.body)).not.toContain('Hidden');
      return ids(listed).includes(Number(locked.id));
    });
    const listed = await fx.list(`search=${encodeURIComponent(`Locked ${fx.tok}`)}`);
    expect(ids(listed)).toEqual([locked.id]);
  });

  it('is never found by its address or city, which it blanks, whoever searches (issue 19, finding 5)', async () => {
    // Seen by the catalog first: found by its name.
    await within(5_000, async () =>
      ids(await fx.list(`search=${encodeURIComponent(`Locked ${fx.tok}`)}`, 'subscriber')).includes(
        Number(locked.id),
      ),
    );
    for (const as of ['subscriber', 'author', 'editor', 'admin'] as const) {
      expect(ids(await fx.list(`search=${encodeURIComponent('9 Hidden Rd')}`, as)), as).not.toContain(
        locked.id,
      );
      expect(ids(await fx.list(`search=lockcity${fx.tok}`, as)), as).toEqual([]);
      expect(ids(await fx.list('search=Secret%20room', as)), as).not.toContain(locked.id);
    }
  });

  it('shows the protected fields with the right password, and blanks them with a wrong one', async () => {
    const right = await fx.call('GET', `/${locked.id}?password=letmein`);
    expect(right.body.city).toBe(`lockcity${fx.tok}`);
    const wrong = await fx.call('GET', `/${locked.id}?password=nope`);
    expect(wrong.status).toBe(200);
    expect(JSON.stringify(wrong.body)).not.toContain('Hidden');
  });

  it('never shows the protected fields embedded in an event to an anonymous caller', async () => {
    const event = await fx.events.event({
      title: `At locked ${fx.tok}`,
      start_date: '2031-07-01 10:00:00',
      end_date: '2031-07-01 11:00:00',
      venue: locked.id,
    });
    const res = await call(fx.t, 'GET', `/events/${event.id}`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain('Hidden');
  });
});
