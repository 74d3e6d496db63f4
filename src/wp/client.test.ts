import { describe, expect, it } from 'vitest';
import { buildQuery, WpClient } from './client.ts';

const client = (languageParam: string | null) =>
  new WpClient({
    baseUrl: 'https://wp.test/wp-json/',
    timeoutMs: 1000,
    languageParam,
    defaultLanguage: 'en',
  });

describe('WpClient.url', () => {
  it.each([
    ['lang', 'es', 'https://wp.test/wp-json/wp/v2/tribe_events?per_page=5&lang=es'],
    ['lang', 'en', 'https://wp.test/wp-json/wp/v2/tribe_events?per_page=5&lang=en'],
    ['wpml_language', 'es', 'https://wp.test/wp-json/wp/v2/tribe_events?per_page=5&wpml_language=es'],
    [null, 'es', 'https://wp.test/wp-json/wp/v2/tribe_events?per_page=5'],
  ])('sends the language as the mapping names it (%s, %s)', (param, lang, url) => {
    expect(client(param).url('/wp/v2/tribe_events', { per_page: 5 }, lang)).toBe(url);
  });

  it('leaves the language out when the call names none', () => {
    expect(client('lang').url('/wp/v2/types')).toBe('https://wp.test/wp-json/wp/v2/types');
  });
});

describe('buildQuery', () => {
  it('joins lists with commas and drops absent values', () => {
    expect(buildQuery({ include: [3, 4], status: undefined, search: 'a b', hide_empty: false })).toBe(
      '?include=3%2C4&search=a+b&hide_empty=false',
    );
    expect(buildQuery({})).toBe('');
  });
});
