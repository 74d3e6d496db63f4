import { describe, expect, it } from 'vitest';
import { makeEntry, publicCacheControl, sharedOf } from '../cache/entry.ts';
import { loadConfig } from '../config.ts';
import { cdnPolicyOf } from './setup.ts';

const policy = (env: Record<string, string>) => ({
  ttlSeconds: 60,
  staleWhileRevalidateSeconds: 30,
  staleIfErrorSeconds: 86_400,
  cdn: cdnPolicyOf(loadConfig([], env)),
});

describe('what anonymous answers tell a CDN', () => {
  it('is nothing more than max-age without a purger: no tags, no s-maxage', () => {
    const p = policy({});
    expect(p.cdn).toBeUndefined();
    expect(publicCacheControl(p)).toBe('public, max-age=60, stale-while-revalidate=30, stale-if-error=86400');
    expect(sharedOf(makeEntry('x', { tags: ['event:1'] }), p).tags).toBeUndefined();
  });

  it("with a purger: its cache's one tag header, and s-maxage", () => {
    const p = policy({
      CDN_PURGE: 'varnish',
      CDN_PURGE_URL: 'http://127.0.0.1:6081',
      CDN_MAX_AGE_SECONDS: '900',
    });
    expect(publicCacheControl(p)).toBe(
      'public, max-age=60, s-maxage=900, stale-while-revalidate=30, stale-if-error=86400',
    );
    expect(sharedOf(makeEntry('x', { tags: ['event:1', 'list:event'] }), p).tags).toEqual({
      xkey: 'event:1 list:event',
    });
    const f = policy({
      CDN_PURGE: 'fastly',
      CDN_SERVICE_ID: 'SU1Z0isxPaozGVKXdv0eY',
      CDN_PURGE_TOKEN: 'a'.repeat(32),
    });
    expect(f.cdn?.tagHeaders).toEqual(['surrogate-key']);
  });

  it('sends the tag headers asked for even without a purger, but no s-maxage then', () => {
    const p = policy({ CDN_TAG_HEADERS: 'cache-tag,surrogate-key' });
    expect(publicCacheControl(p)).not.toContain('s-maxage');
    expect(sharedOf(makeEntry('x', { tags: ['event:1', 'venue:2'] }), p).tags).toEqual({
      'cache-tag': 'event:1,venue:2',
      'surrogate-key': 'event:1 venue:2',
    });
  });
});
