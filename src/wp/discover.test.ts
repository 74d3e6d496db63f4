import { describe, expect, it } from 'vitest';
import { apiLinkOf } from './discover.ts';

describe('apiLinkOf', () => {
  it.each<[string | null, string | undefined]>([
    ['<https://example.com/wp-json/>; rel="https://api.w.org/"', 'https://example.com/wp-json/'],
    [
      '<https://example.com/?p=1>; rel=shortlink, <https://example.com/wp-json/>; rel="https://api.w.org/"',
      'https://example.com/wp-json/',
    ],
    ['<https://example.com/wp-json/wp/v2/pages/2>; rel="alternate"; type="application/json"', undefined],
    ['<https://example.com/wp-json/>; rel=https://api.w.org/', 'https://example.com/wp-json/'],
    [null, undefined],
  ])('reads %j', (header, root) => {
    expect(apiLinkOf(header)).toBe(root);
  });
});
