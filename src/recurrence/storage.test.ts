// The recurrence fields of RECURRENCE.md are stored through both bundled mappings and registered for REST by the mock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startSeeded } from '../../mocks/wordpress/test-support.ts';
import { metaKeysOf } from '../mapping/schema.ts';
import { loadMappingSync } from '../mapping/test-support.ts';

const WANT = {
  tec: {
    recurrence: ['_EventRecurrenceRule', 'string'],
    series_parent: ['_EventSeriesParent', 'int'],
    recurrence_id: ['_EventRecurrenceId', 'datetime'],
    series_previous: ['_EventSeriesPrevious', 'int'],
  },
  custom: {
    recurrence: ['event_recurrence', 'string'],
    series_parent: ['event_series_parent', 'int'],
    recurrence_id: ['event_recurrence_id', 'datetime'],
    series_previous: ['event_series_previous', 'int'],
  },
} as const;

describe.each(['tec', 'custom'] as const)('the %s mapping', (name) => {
  const mapping = loadMappingSync(`mappings/${name}.json`);

  it('declares the four recurrence fields with the shared meta keys and formats', () => {
    const fields = mapping.event.fields as Record<string, { meta?: string; format?: string } | undefined>;
    for (const [field, [meta, format]] of Object.entries(WANT[name])) {
      expect(fields[field]).toEqual({ meta, format });
      expect(metaKeysOf(mapping).get(mapping.event.postType)?.get(meta)).toBe(format);
    }
  });

  describe('over the mock WordPress', () => {
    // One mock at a time: both would answer the same base URL.
    let wp: ReturnType<typeof startSeeded>;
    beforeAll(() => {
      wp = startSeeded(name);
    });
    afterAll(() => wp.close());

    it('stores and reads back a series rule and an override link as the companion registers them', async () => {
      const keys = Object.fromEntries(Object.entries(WANT[name]).map(([k, [meta]]) => [k, meta]));
      const base = mapping.event.restBase;
      const rule = 'RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T235959Z\nEXDATE:20261224T190000';
      const series = await call(`/wp/v2/${base}`, {
        as: 'admin',
        json: { title: 'Class', status: 'publish', meta: { [keys.recurrence]: rule } },
      });
      expect(series.status).toBe(201);
      const override = await call(`/wp/v2/${base}`, {
        as: 'admin',
        json: {
          title: 'Class (moved)',
          status: 'publish',
          meta: {
            [keys.series_parent]: series.body.id,
            [keys.recurrence_id]: '2026-12-01 00:00:00',
            [keys.series_previous]: 0,
          },
        },
      });
      expect(override.status).toBe(201);
      const read = await call(`/wp/v2/${base}/${override.body.id}?context=edit`, { as: 'admin' });
      expect(read.body.meta[keys.series_parent]).toBe(series.body.id);
      expect(read.body.meta[keys.recurrence_id]).toBe('2026-12-01 00:00:00');
      const back = await call(`/wp/v2/${base}/${series.body.id}?context=edit`, { as: 'admin' });
      expect(back.body.meta[keys.recurrence]).toBe(rule);
    });
  });
});
