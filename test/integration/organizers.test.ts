// /organizers against the project's upstream: the shared venue/organizer behaviour plus organizer fields.
import { beforeAll, describe, expect, it } from 'vitest';
import { idsOf, type LinkedRecord, linkedSuite } from './linked-suite.ts';

const fx = linkedSuite({ kind: 'organizer', plural: 'organizers', field: 'phone' });
const ids = (res: Parameters<typeof idsOf>[0]) => idsOf(res, 'organizers');

describe('organizer fields', () => {
  let full: LinkedRecord;

  beforeAll(async () => {
    full = await fx.create({
      organizer: `Full ${fx.tok}`,
      description: 'Runs things.',
      phone: `+34 600 ${fx.tok}`,
      website: `https://example.com/${fx.tok}`,
      email: `mail-${fx.tok}@example.com`,
    });
  });

  it('answers every organizer key in TEC order, global ids last', async () => {
    const res = await fx.call('GET', `/${full.id}`);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'organizer',
      'description',
      'slug',
      'phone',
      'website',
      'email',
      'json_ld',
      'global_id',
      'global_id_lineage',
    ]);
    expect(res.body).not.toHaveProperty('show_map');
  });

  it.each([
    ['e-mail', () => `mail-${fx.tok}@`],
    ['website', () => `example.com/${fx.tok}`],
    ['phone', () => `600 ${fx.tok}`],
  ])('search matches the %s', async (_label, text) => {
    expect(ids(await fx.list(`search=${encodeURIComponent(text())}`))).toEqual([full.id]);
  });

  it('accepts any e-mail text (TEC does not check its format)', async () => {
    const rec = await fx.create({ organizer: `Odd mail ${fx.tok}`, email: 'not-an-address' });
    expect(rec.email).toBe('not-an-address');
  });

  it('lists every organizer an event links to with event=ID', async () => {
    const other = await fx.create({ organizer: `Second ${fx.tok}` });
    const event = await fx.events.event({
      title: `Two organizers ${fx.tok}`,
      start_date: '2031-08-01 10:00:00',
      end_date: '2031-08-01 11:00:00',
      organizer: [full.id, other.id],
    });
    expect(ids(await fx.list(`event=${event.id}`)).sort()).toEqual([full.id, other.id].sort());
  });
});
