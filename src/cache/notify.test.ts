// Change notifications: only correctly signed, fresh bodies are accepted; each change maps to the right tags.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Mapping } from '../mapping/schema.ts';
import { parseNotification, planOf, sign, verifySignature } from './notify.ts';

const secret = 'a-shared-secret-of-some-length';

describe('verifySignature', () => {
  it('accepts the HMAC of the exact body and rejects any other body', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1 }), fc.uint8Array({ minLength: 1 }), (a, b) => {
        const body = Buffer.from(a);
        expect(verifySignature(body, sign(body, secret), secret)).toBe(true);
        fc.pre(Buffer.compare(body, Buffer.from(b)) !== 0);
        expect(verifySignature(Buffer.from(b), sign(body, secret), secret)).toBe(false);
      }),
    );
  });

  it.each([[undefined], [''], ['sha256=00'], [sign('{}', 'another-secret-entirely')]])(
    'rejects signature header %j',
    (header) => {
      expect(verifySignature(Buffer.from('{}'), header, secret)).toBe(false);
    },
  );
});

describe('parseNotification', () => {
  const body = (o: unknown) => Buffer.from(JSON.stringify(o));
  it.each([
    ['not JSON', Buffer.from('{'), 400],
    ['without changes', body({ time: 1000 }), 400],
    ['too old', body({ time: 1000 - 301, changes: [] }), 401],
    ['from the future', body({ time: 1000 + 301, changes: [] }), 401],
  ])('refuses a body %s', (_name, raw, status) => {
    const r = parseNotification(raw, 1000);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.status).toBe(status);
  });

  it('keeps well-formed changes and drops the rest', () => {
    const r = parseNotification(
      body({
        time: 1000,
        changes: [
          { kind: 'post', id: 3, type: 'tribe_events', action: 'save' },
          { kind: 'post', id: -1 },
          null,
        ],
      }),
      1010,
    );
    expect(r).toEqual({
      ok: true,
      notification: { time: 1000, changes: [{ kind: 'post', id: 3, type: 'tribe_events', action: 'save' }] },
    });
  });
});

describe('planOf', () => {
  const mapping = {
    event: {
      postType: 'tribe_events',
      categories: { taxonomy: 'tribe_events_cat' },
      tags: { taxonomy: 'post_tag' },
    },
    venue: { postType: 'tribe_venue' },
    organizer: { postType: 'tribe_organizer' },
  } as unknown as Mapping;

  it('re-reads saved events and drops their tags and the event lists', () => {
    const plan = planOf(
      { time: 0, changes: [{ kind: 'post', id: 5, type: 'tribe_events', action: 'save' }] },
      mapping,
    );
    expect(plan).toEqual({ events: [5], tags: ['event:5', 'list:event'], terms: false });
  });

  it.each([
    ['venue', { kind: 'post', id: 2, type: 'tribe_venue', action: 'save' }, ['list:venue', 'venue:2'], false],
    [
      'organizer',
      { kind: 'post', id: 2, type: 'tribe_organizer', action: 'delete' },
      ['list:organizer', 'organizer:2'],
      false,
    ],
    [
      'category',
      { kind: 'term', id: 4, type: 'tribe_events_cat', action: 'edit' },
      ['list:event', 'list:term', 'term:tribe_events_cat:4'],
      true,
    ],
    ['unmapped post type', { kind: 'post', id: 2, type: 'page', action: 'save' }, [], false],
    ['unmapped taxonomy', { kind: 'term', id: 2, type: 'nav_menu', action: 'edit' }, [], false],
  ] as const)('maps a %s change', (_name, change, tags, terms) => {
    const plan = planOf({ time: 0, changes: [change] }, mapping);
    expect(plan.tags).toEqual(tags);
    expect(plan.terms).toBe(terms);
    expect(plan.events).toEqual([]);
  });
});
