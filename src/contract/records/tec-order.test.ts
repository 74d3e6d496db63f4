// Every descriptor starts with TEC's keys in TEC's order, and a field of ours cannot be put among them.
import { describe, expect, it } from 'vitest';
import { TEC_KEYS_OF } from '../../../test/support/tec-keys.ts';
import { categoryRecord, eventRecord, keysOf, organizerRecord, tagRecord, venueRecord } from '../records.ts';
import { field, s } from './fields.ts';
import { inOrder, TEC_KEYS, tecRecord } from './tec-order.ts';

const ALL = [eventRecord, venueRecord, organizerRecord, categoryRecord, tagRecord];

describe('the record descriptors', () => {
  it("hold TEC's keys as the contract lists them (the tests' own transcription)", () => {
    expect(TEC_KEYS).toEqual(TEC_KEYS_OF);
  });

  it.each(ALL.map((r) => [r.kind, r] as const))(
    '%s: TEC keys first, in TEC order, then ours',
    (_k, record) => {
      const keys = keysOf(record);
      const tec: readonly string[] = TEC_KEYS[record.kind];
      const own = keys.filter((k) => tec.includes(k));
      expect(inOrder(own, tec)).toBe(true);
      // Everything we add comes after the last TEC key sent in lists (`json_ld` is single reads only).
      const lastTec = Math.max(...own.filter((k) => k !== 'json_ld').map((k) => keys.indexOf(k)));
      for (const k of record.added) {
        expect(tec).not.toContain(k);
        expect(keys.indexOf(k)).toBeGreaterThan(lastTec);
      }
      expect(keys.filter((k) => !tec.includes(k))).toEqual([...record.added]);
    },
  );

  it('the event has every TEC key, so its list records start with exactly TEC order, and json_ld comes last', () => {
    const keys = keysOf(eventRecord);
    const tec = TEC_KEYS.event.filter((k) => k !== 'json_ld');
    expect(keys.slice(0, tec.length)).toEqual(tec);
    expect(keys.at(-1)).toBe('json_ld');
    expect(eventRecord.added).toEqual(expect.arrayContaining(['event_status', 'event_status_reason']));
  });

  it('refuses a field of ours among TEC fields, and TEC fields out of order', () => {
    const f = (key: string) => field({ key, about: { en: key, es: key }, type: s });
    expect(() =>
      tecRecord({ kind: 'tags', component: 'Term', dropEmpty: false, tec: [f('id'), f('mine'), f('count')] }),
    ).toThrow(/not in TEC's order/);
    expect(() =>
      tecRecord({ kind: 'tags', component: 'Term', dropEmpty: false, tec: [f('count'), f('id')] }),
    ).toThrow(/not in TEC's order/);
    expect(() =>
      tecRecord({
        kind: 'tags',
        component: 'Term',
        dropEmpty: false,
        tec: [f('id')],
        additions: [f('urls')],
      }),
    ).toThrow(/are TEC's keys/);
  });

  it('puts additions after TEC keys, before a trailing single-read field', () => {
    const f = (key: string, singleOnly?: true) =>
      field({ key, about: { en: key, es: key }, type: s, singleOnly });
    const r = tecRecord({
      kind: 'organizer',
      component: 'Organizer',
      dropEmpty: true,
      tec: [f('id'), f('email'), f('json_ld', true)],
      additions: [f('distance_km')],
    });
    expect(keysOf(r)).toEqual(['id', 'email', 'distance_km', 'json_ld']);
    const v = tecRecord({
      kind: 'venue',
      component: 'Venue',
      dropEmpty: true,
      tec: [f('id'), f('json_ld', true), f('global_id')],
      additions: [f('distance_km')],
    });
    expect(keysOf(v)).toEqual(['id', 'json_ld', 'global_id', 'distance_km']);
  });
});
