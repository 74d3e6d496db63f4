// The /events filter descriptors cover the list's arguments, each argument once.
import { describe, expect, it } from 'vitest';
import { listEventsArgs } from '../contract/events.ts';
import { EVENT_FILTERS, NOT_FILTERS } from './filters.ts';

describe('the /events filters', () => {
  it('read every list argument exactly once, or name it as no filter', () => {
    const read = [...EVENT_FILTERS.flatMap((f) => f.args), ...NOT_FILTERS];
    expect([...read].sort()).toEqual(Object.keys(listEventsArgs).sort());
    expect(new Set(read).size).toBe(read.length);
  });
});
