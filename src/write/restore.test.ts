import { describe, expect, it } from 'vitest';
import type { WpPost } from '../wp/types.ts';
import { inverseOf, stillOurs } from './restore.ts';

const post = (over: Partial<WpPost> = {}): WpPost => ({
  id: 7,
  date: '2036-01-01T10:00:00',
  date_gmt: '2036-01-01T10:00:00',
  modified: '',
  modified_gmt: '',
  slug: 'jazz',
  status: 'publish',
  type: 'tribe_events',
  link: '',
  title: { raw: 'Jazz', rendered: 'Jazz' },
  meta: { _EventRecurrenceRule: 'RRULE:FREQ=WEEKLY', _EventSeriesParent: 0, _EventShowMap: '1' },
  tags: [3, 4],
  ...over,
});

describe('restore steps', () => {
  it('put back every key a write sends, texts by their raw value, meta key by key', () => {
    const body = {
      title: 'Blues',
      tags: [5],
      meta: { _EventRecurrenceRule: 'RRULE:FREQ=DAILY', _EventCost: '9' },
    };
    expect(inverseOf(post(), body)).toEqual({
      title: 'Jazz',
      tags: [3, 4],
      // A key the post did not hold goes back to its empty value.
      meta: { _EventRecurrenceRule: 'RRULE:FREQ=WEEKLY', _EventCost: '' },
    });
  });

  it('are applied while the record holds what the write sent, or what it would put back', () => {
    const step = {
      restBase: 'tribe_events',
      id: 7,
      wrote: { meta: { _EventRecurrenceRule: 'RRULE:FREQ=DAILY' } },
      put: { meta: { _EventRecurrenceRule: 'RRULE:FREQ=WEEKLY' } },
    };
    expect(stillOurs(post({ meta: { _EventRecurrenceRule: 'RRULE:FREQ=DAILY' } }), step)).toBe(true);
    // The write never landed: putting back is harmless.
    expect(stillOurs(post(), step)).toBe(true);
    // Someone wrote another rule since: theirs stays.
    expect(stillOurs(post({ meta: { _EventRecurrenceRule: 'RRULE:FREQ=MONTHLY' } }), step)).toBe(false);
  });

  it('compare a trashed record by its status, whatever WordPress did to its slug', () => {
    const step = {
      restBase: 'tribe_events',
      id: 7,
      wrote: { status: 'trash' },
      put: { status: 'publish', slug: 'jazz' },
    };
    expect(stillOurs(post({ status: 'trash', slug: 'jazz__trashed' }), step)).toBe(true);
    expect(stillOurs(post({ status: 'draft' }), step)).toBe(false);
  });

  it('read booleans, numbers and lists as the meta text WordPress answers with', () => {
    const step = {
      restBase: 'tribe_events',
      id: 7,
      wrote: { meta: { _EventShowMap: true, _EventSeriesParent: 12, _EventOrganizerID: [1, 2] } },
      put: { meta: { _EventShowMap: '', _EventSeriesParent: 0, _EventOrganizerID: [] } },
    };
    const now = post({ meta: { _EventShowMap: '1', _EventSeriesParent: 12, _EventOrganizerID: [1, 2] } });
    expect(stillOurs(now, step)).toBe(true);
  });
});
