// The gateway's bookkeeping never reaches an answer's `meta`; the site's public meta does, as WordPress sent it.
import { describe, expect, it } from 'vitest';
import { WRITE_META } from '../wp/probe.ts';
import { isInternalMeta, publicMeta } from './meta.ts';
import { serializeTerm } from './terms.ts';
import { SITE } from './test-fixtures.ts';

describe('publicMeta', () => {
  it("counts the write token and the companion plugin's other keys as internal", () => {
    expect(isInternalMeta(WRITE_META)).toBe(true);
    expect(isInternalMeta('_calendar_gateway_write_shared')).toBe(true);
    expect(isInternalMeta('color')).toBe(false);
  });

  it("answers PHP's empty array when only internal keys (or none) are left", () => {
    expect(publicMeta({ [WRITE_META]: '5f0c…' })).toEqual([]);
    expect(publicMeta({ [WRITE_META]: '' })).toEqual([]);
    expect(publicMeta({})).toEqual([]);
    expect(publicMeta([])).toEqual([]);
    expect(publicMeta(undefined)).toEqual([]);
  });

  it("keeps the site's own registered meta, in WordPress's order", () => {
    expect(publicMeta({ color: 'red', [WRITE_META]: 'x', icon: 'star' })).toEqual({
      color: 'red',
      icon: 'star',
    });
  });

  it('a term answer made from an edit-context term (a write) shows no token', () => {
    const term = {
      id: 4,
      name: 'Jazz',
      slug: 'jazz',
      taxonomy: 'tribe_events_cat',
      link: 'https://x.test/jazz',
      count: 0,
      description: '',
    };
    const out = serializeTerm({ ...term, meta: { [WRITE_META]: 'token' } }, 'categories', {
      site: SITE,
      embedded: false,
    });
    expect(out.meta).toEqual([]);
    expect(JSON.stringify(out)).not.toContain(WRITE_META);
  });
});
