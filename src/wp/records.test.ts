import { describe, expect, it } from 'vitest';
import { RecordCache } from './records.ts';
import type { WpPost } from './types.ts';

const post = (id: number) => ({ id }) as WpPost;

describe('RecordCache', () => {
  it('keeps records per kind and language', () => {
    const c = new RecordCache(60_000);
    c.set('venue', 'en', post(3));
    expect(c.get('venue', 'en', 3)?.id).toBe(3);
    expect(c.get('venue', 'es', 3)).toBeUndefined();
    expect(c.get('organizer', 'en', 3)).toBeUndefined();
  });

  it('drops exactly the records named by invalidation tags, in every language', () => {
    const c = new RecordCache(60_000);
    for (const lang of ['en', 'es']) {
      c.set('venue', lang, post(3));
      c.set('venue', lang, post(33));
      c.set('organizer', lang, post(3));
    }
    c.drop(['venue:3', 'event:3', 'list:event']);
    expect(['en', 'es'].map((l) => c.get('venue', l, 3))).toEqual([undefined, undefined]);
    expect(c.get('venue', 'en', 33)?.id).toBe(33);
    expect(c.get('organizer', 'es', 3)?.id).toBe(3);
  });

  it('drops an attachment by its media tag', () => {
    const c = new RecordCache(60_000);
    c.set('media', 'en', post(9));
    c.set('media', 'en', post(10));
    c.drop(['media:9']);
    expect(c.get('media', 'en', 9)).toBeUndefined();
    expect(c.get('media', 'en', 10)?.id).toBe(10);
  });

  it('drops everything on a purge', () => {
    const c = new RecordCache(60_000);
    c.set('organizer', 'en', post(8));
    c.drop(null);
    expect(c.get('organizer', 'en', 8)).toBeUndefined();
  });

  it('after a purge, a record evicted for room leaves its tags: held again under others, it stays on a drop of the old', () => {
    const c = new RecordCache(60_000, 1);
    c.set('event', 'en', post(9), { tags: ['venue:4'] });
    c.drop(null);
    c.set('event', 'en', post(1), { tags: ['venue:5'] });
    c.set('event', 'en', post(2));
    expect(c.get('event', 'en', 1)).toBeUndefined();
    c.set('event', 'en', post(1), { tags: ['venue:6'] });
    c.drop(['venue:5', 'venue:4']);
    expect(c.get('event', 'en', 1)?.id).toBe(1);
    c.drop(['venue:6']);
    expect(c.get('event', 'en', 1)).toBeUndefined();
  });
});
