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
