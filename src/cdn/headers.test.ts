import { describe, expect, it } from 'vitest';
import { foldTag, HEADER_RULES, tagHeadersOf, tagHeaderValue } from './headers.ts';

describe('tag headers', () => {
  it('spell the tags as each cache reads them: spaces for Fastly and Varnish, commas for Cloudflare', () => {
    const tags = ['event:1', 'list:event', 'venue:5'];
    expect(tagHeadersOf(tags, ['surrogate-key', 'cache-tag', 'xkey'])).toEqual({
      'surrogate-key': 'event:1 list:event venue:5',
      'cache-tag': 'event:1,list:event,venue:5',
      xkey: 'event:1 list:event venue:5',
    });
    expect(tagHeadersOf(tags, [])).toEqual({});
    expect(tagHeadersOf([], ['xkey'])).toEqual({});
  });

  it('fold record tags into their list tags when the header would pass its budget', () => {
    const many = Array.from({ length: 2_000 }, (_, i) => `event:${i + 1}`);
    const tags = ['list:event', 'links:venue', ...many, 'venue:3', 'term:post_tag:4'];
    for (const name of ['surrogate-key', 'cache-tag', 'xkey'] as const) {
      const value = tagHeaderValue(tags, name);
      expect(Buffer.byteLength(value)).toBeLessThanOrEqual(HEADER_RULES[name].budget);
      expect(value.split(HEADER_RULES[name].separator)).toEqual([
        'links:venue',
        'list:event',
        'list:term',
        'list:venue',
      ]);
    }
    // Within budget nothing is folded.
    expect(tagHeaderValue(many.slice(0, 100), 'surrogate-key').split(' ')).toHaveLength(100);
  });

  it('fold each record kind into the list tag every write of that kind drops', () => {
    expect(
      ['event:1', 'venue:2', 'organizer:3', 'term:post_tag:4', 'list:event', 'links:term'].map(foldTag),
    ).toEqual(['list:event', 'list:venue', 'list:organizer', 'list:term', 'list:event', 'links:term']);
  });
});
