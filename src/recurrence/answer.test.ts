// The recurrence fields of event answers: a series, an override, a one-off, after TEC's keys on both mappings.
import { describe, expect, it } from 'vitest';
import { TEC_EVENT } from '../../test/support/tec-keys.ts';
import { serializeEvent } from '../serialize/event.ts';
import { CUSTOM_MAPPING, eventPost, opts, related, TEC_MAPPING } from '../serialize/test-fixtures.ts';

const base = {
  start_date: '2026-10-27 19:00:00',
  end_date: '2026-10-27 21:00:00',
  utc_start_date: '2026-10-27 23:00:00',
  utc_end_date: '2026-10-28 01:00:00',
  timezone: 'America/New_York',
};

describe.each([
  ['tec', TEC_MAPPING],
  ['custom', CUSTOM_MAPPING],
] as const)('recurrence fields (%s mapping)', (_, mapping) => {
  const serialize = (values: Record<string, unknown>) =>
    serializeEvent(
      eventPost(mapping, { ...base, ...values }),
      related(mapping),
      opts(mapping, { context: 'single' }),
    );

  it('gives a series post its rule, its words and itself as the series', () => {
    const r = serialize({
      recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T235959Z\nEXDATE:20261224T190000',
    });
    expect(r.is_recurring).toBe(true);
    expect(r.series_id).toBe(10);
    expect(r.original_start_utc).toBe(
      mapping.event.fields.utc_start_date ? '2026-10-27 23:00:00' : r.utc_start_date,
    );
    expect(r.recurrence).toMatchObject({
      rrule: 'FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T235959Z',
      rdate: [],
      exdate: ['20261224T190000'],
    });
    expect((r.recurrence as { text: string }).text).toMatch(/Tuesday and Thursday/);
  });

  it('names an override’s series and the original start it replaces', () => {
    const r = serialize({ series_parent: 77, recurrence_id: '2026-11-03 00:00:00' });
    expect([r.is_recurring, r.series_id, r.original_start_utc]).toEqual([true, 77, '2026-11-03 00:00:00']);
    // A series the caller may not read (not at hand): no rule to show.
    expect(r.recurrence).toBeNull();
  });

  it('gives an override its series’ rule, read for the series’ own start, when the series is at hand', () => {
    const rule = 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10';
    const series = eventPost(mapping, { ...base, recurrence: rule }, { id: 77 });
    const r = serializeEvent(
      // Moved to a Wednesday: the words still say the series' Tuesday.
      eventPost(
        mapping,
        {
          ...base,
          start_date: '2026-11-04 20:00:00',
          end_date: '2026-11-04 22:00:00',
          utc_start_date: '2026-11-05 01:00:00',
          utc_end_date: '2026-11-05 03:00:00',
          series_parent: 77,
          recurrence_id: '2026-11-04 00:00:00',
        },
        { id: 78 },
      ),
      { ...related(mapping), series: new Map([[77, series]]) },
      opts(mapping, { context: 'single' }),
    );
    expect(r.series_id).toBe(77);
    expect(r.recurrence).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=10', rdate: [], exdate: [] });
    expect((r.recurrence as { text: string }).text).toMatch(/Tuesday/);
    expect((r.recurrence as { text: string }).text).not.toMatch(/Wednesday/);
  });

  it('says a one-off does not repeat, and an unreadable rule is none', () => {
    for (const values of [{}, { recurrence: 'RRULE:FREQ=SOMETIMES' }]) {
      const r = serialize(values);
      expect([r.is_recurring, r.series_id, r.original_start_utc, r.recurrence]).toEqual([
        false,
        null,
        null,
        null,
      ]);
    }
  });

  it('puts the fields after event_status_reason and before json_ld, TEC’s keys (but json_ld) an exact prefix', () => {
    const keys = Object.keys(serialize({ recurrence: 'RRULE:FREQ=DAILY;COUNT=3' }));
    const tec = TEC_EVENT.filter((k) => k !== 'json_ld');
    expect(keys.slice(0, tec.length)).toEqual(tec);
    const at = keys.indexOf('event_status_reason');
    expect(keys.slice(at + 1, at + 5)).toEqual([
      'is_recurring',
      'series_id',
      'original_start_utc',
      'recurrence',
    ]);
    expect(keys.at(-1)).toBe('json_ld');
  });
});
