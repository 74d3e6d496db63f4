import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactLogFields, redactUrl } from './redact.ts';

describe('redactUrl', () => {
  it.each([
    [
      '/wp-login.php?log=ann&pwd=hunter2&redirect_to=%2F',
      '/wp-login.php?log=ann&pwd=[redacted]&redirect_to=%2F',
    ],
    [
      '/wp-json/wp/v2/posts?_wpnonce=abc123&per_page=1',
      '/wp-json/wp/v2/posts?_wpnonce=[redacted]&per_page=1',
    ],
    ['/events/5?password=s3cret', '/events/5?password=[redacted]'],
    [
      '/x?post_password=a&PassWord=b&app_password=c',
      '/x?post_password=[redacted]&PassWord=[redacted]&app_password=[redacted]',
    ],
    [
      '/x?api_key=1&access_token=2&secret=3&key=4&rp_key=5',
      '/x?api_key=[redacted]&access_token=[redacted]&secret=[redacted]&key=[redacted]&rp_key=[redacted]',
    ],
    ['/x?%70wd=hunter2', '/x?%70wd=[redacted]'],
    ['https://site.test/a?token=t#frag', 'https://site.test/a?token=[redacted]#frag'],
    ['/x?search=music&page=2', '/x?search=music&page=2'],
    ['/no-query', '/no-query'],
    ['/x?password', '/x?password'],
    ['https://ann:hunter2@site.test/wp-json', 'https://ann:[redacted]@site.test/wp-json'],
    ['redis://:s3cret@redis:6379/0?password=x', 'redis://:[redacted]@redis:6379/0?password=[redacted]'],
    ['https://ann@site.test/wp-json', 'https://ann@site.test/wp-json'],
    ['/events?search=a:b@c', '/events?search=a:b@c'],
  ])('%s → %s', (url, want) => {
    expect(redactUrl(url)).toBe(want);
  });

  it('never lets the value of a sensitive parameter through, whatever the value', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('pwd', 'password', '_wpnonce', 'token', 'secret', 'key'),
        fc.string({ minLength: 6 }).filter((s) => !/[&#=]/.test(s) && !'[redacted]'.includes(s)),
        (name, value) => {
          const out = redactUrl(`/p?a=1&${name}=${encodeURIComponent(value)}&b=2`);
          expect(out).not.toContain(encodeURIComponent(value));
          expect(out).toBe(`/p?a=1&${name}=[redacted]&b=2`);
        },
      ),
    );
  });
});

describe('redactLogFields', () => {
  it('redacts the URL fields of a log line and leaves the rest, and the object, alone', () => {
    const line = { url: '/a?pwd=x', path: '/b?_wpnonce=y', msg: 'kept', n: 1 };
    expect(redactLogFields(line)).toEqual({
      url: '/a?pwd=[redacted]',
      path: '/b?_wpnonce=[redacted]',
      msg: 'kept',
      n: 1,
    });
    expect(line.url).toBe('/a?pwd=x');
    const clean = { url: '/a?page=1' };
    expect(redactLogFields(clean)).toBe(clean);
  });
});
