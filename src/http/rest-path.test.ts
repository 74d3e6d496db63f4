import { describe, expect, it } from 'vitest';
import { unsafeRestPath } from './rest-path.ts';

describe('unsafeRestPath', () => {
  it.each([
    '/wp-json/%2e%2e/wp-login.php',
    '/wp-json/%2E%2e/wp-login.php',
    '/wp-json/.%2e/wp-login.php',
    '/wp-json/%2e./wp-login.php',
    '/wp-json/../wp-login.php',
    '/wp-json/./calendar/events/v1/events',
    '/wp-json/%2e/calendar/events/v1/events',
    '/wp-json/calendar/events/v1/events/..',
    '/wp-json/wp/v2/%252e%252e/%252e%252e/wp-admin/',
    '/wp-json/wp%2fv2/posts',
    '/wp-json/wp%2Fv2/posts',
    '/wp-json/wp%5cv2/posts',
    '/wp-json/wp%5Cv2/posts',
    '/wp-json/wp\\v2/posts',
    '/wp-json/wp%252fv2/posts',
    '/es/wp-json/%2e%2e/%2e%2e/wp-config.php',
    '/wp-json%2f..%2fwp-login.php',
  ])('refuses %s', (path) => {
    expect(unsafeRestPath(path)).toBe(true);
  });

  it.each([
    '/wp-json',
    '/wp-json/',
    '/wp-json/calendar/events/v1/events',
    '/wp-json/calendar/events/v1/events/by-slug/caf%C3%A9',
    '/wp-json/wp/v2/tribe_events/12',
    '/wp-json/wp/v2/media/a..b',
    '/wp-json/wp/v2/posts/%zz',
    '/es/wp-json/calendar/events/v1/',
  ])('lets %s through', (path) => {
    expect(unsafeRestPath(path)).toBe(false);
  });
});
