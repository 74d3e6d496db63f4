import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, viewOf } from './feed.ts';
import type { LoggedChange } from './types.ts';

const change = (action: LoggedChange['action'], was: boolean, now: boolean): LoggedChange => ({
  kind: 'event',
  id: 5,
  action,
  modified_utc: '2026-01-01 10:00:00',
  rest_url: 'http://a/wp-json/calendar/events/v1/events/5',
  tags: ['event:5', 'list:event'],
  public: now,
  was_public: was,
  cursor: '1-0',
});

describe('the feed for one caller', () => {
  it('turns leaving public view into a deletion and entering it into a creation, for the public only', () => {
    const pub = () => false;
    const editor = () => true;
    const root = 'http://gw/es/wp-json/calendar/events/v1';
    expect(viewOf(change('updated', true, false), pub, root)?.action).toBe('deleted');
    expect(viewOf(change('updated', false, true), pub, root)?.action).toBe('created');
    expect(viewOf(change('updated', true, true), pub, root)?.action).toBe('updated');
    expect(viewOf(change('updated', false, false), pub, root)).toBeNull();
    expect(viewOf(change('created', false, false), pub, root)).toBeNull();
    expect(viewOf(change('deleted', false, false), pub, root)).toBeNull();
    expect(viewOf(change('deleted', true, false), pub, root)?.action).toBe('deleted');
    expect(viewOf(change('updated', true, false), editor, root)?.action).toBe('updated');
    // The record's URL under the root the caller asked.
    expect(viewOf(change('created', false, true), pub, root)?.rest_url).toBe(`${root}/events/5`);
  });

  it('reads back every cursor it makes, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
        fc.nat(),
        fc.nat(),
        fc.option(fc.record({ kind: fc.integer({ min: 0, max: 4 }), scan: fc.nat().map(String) }), {
          nil: undefined,
        }),
        (epoch, ms, seq, sync) => {
          const c = { epoch, pos: `${ms}-${seq}`, ...(sync ? { sync } : {}) };
          expect(decodeCursor(encodeCursor(c))).toEqual(c);
        },
      ),
    );
    for (const bad of [
      '',
      'nonsense!',
      Buffer.from('e.notanid').toString('base64url'),
      Buffer.from('e.1-0.9.0').toString('base64url'),
    ])
      expect(decodeCursor(bad)).toBeUndefined();
  });
});
