// The one decision of who a request is, and the fast path's pre-filter agreeing with it.
import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { audienceOf, credentialsOf, mayCarryCredentials } from './credentials.ts';

const req = (headers: Record<string, string>, url = '/wp-json/calendar/events/v1/events') =>
  ({ headers, url }) as unknown as IncomingMessage;
const basic = `Basic ${Buffer.from('editor:abcd efgh').toString('base64')}`;

describe('credentialsOf', () => {
  it.each([
    ['Basic auth', { authorization: basic }, '/', { kind: 'basic', user: 'editor' }],
    [
      'a logged-in cookie with a nonce',
      { cookie: 'wordpress_logged_in_x=1', 'x-wp-nonce': 'n' },
      '/',
      { kind: 'cookie' },
    ],
    [
      'a logged-in cookie with _wpnonce',
      { cookie: 'wordpress_logged_in_x=1' },
      '/?_wpnonce=n',
      { kind: 'cookie' },
    ],
  ])('finds %s', (_name, headers, url, expected) => {
    expect(credentialsOf(req(headers, url))).toMatchObject(expected);
  });

  it.each([
    ['nothing', {}],
    ['a cookie without a nonce', { cookie: 'wordpress_logged_in_x=1' }],
    ['a nonce without a logged-in cookie', { cookie: 'other=1', 'x-wp-nonce': 'n' }],
    ['a Bearer token', { authorization: 'Bearer x' }],
  ])('finds none in %s: the caller is anonymous', (_name, headers) => {
    expect(credentialsOf(req(headers))).toBeUndefined();
    expect(audienceOf(credentialsOf(req(headers)))).toBe('anonymous');
  });

  it('makes one caller of every spelling of the same Basic credentials, and two of different ones', () => {
    const scheme = fc
      .array(fc.boolean(), { minLength: 5, maxLength: 5 })
      .map((up) => [...'basic'].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(''));
    const blank = fc.constantFrom(' ', '  ', '\t', ' \t ');
    // `user:password`, as a Basic header carries it (a user name holds no colon).
    const secret = fc
      .tuple(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }))
      .map(([user, password]) => `${user.replaceAll(':', '')}:${password}`);
    const spelling = fc.record({ scheme, blank, unpadded: fc.boolean() });
    const headerOf = (s: { scheme: string; blank: string; unpadded: boolean }, secret: string) => {
      const b64 = Buffer.from(secret).toString('base64');
      return `${s.scheme}${s.blank}${s.unpadded ? b64.replace(/=+$/, '') : b64}`;
    };
    const of = (authorization: string) => credentialsOf(req({ authorization }));
    fc.assert(
      fc.property(spelling, spelling, secret, secret, (s1, s2, p, q) => {
        const a = of(headerOf(s1, p));
        expect(a).toEqual(of(headerOf(s2, p)));
        expect(audienceOf(a)).toBe(audienceOf(of(headerOf(s2, p))));
        // WordPress is sent the one spelling, which it decodes to the same user and password.
        expect(a).toEqual({
          kind: 'basic',
          header: `Basic ${Buffer.from(p).toString('base64')}`,
          user: p.split(':')[0],
        });
        expect(audienceOf(a) !== audienceOf(of(headerOf(s2, q)))).toBe(p !== q);
      }),
    );
  });

  it('finds credentials only where the fast path would not answer from the shared cache', () => {
    const header = fc.constantFrom('authorization', 'cookie', 'x-wp-nonce', 'accept', 'x-other');
    const value = fc.oneof(fc.constantFrom(basic, 'wordpress_logged_in_a=b', 'n'), fc.string());
    fc.assert(
      fc.property(fc.dictionary(header, value), fc.constantFrom('/', '/?_wpnonce=n'), (headers, url) => {
        if (credentialsOf(req(headers, url))) expect(mayCarryCredentials(headers)).toBe(true);
      }),
    );
  });
});
