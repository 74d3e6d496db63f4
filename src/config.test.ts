import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const fails = (argv: string[], env: Record<string, string>): string => {
  try {
    loadConfig(argv, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const c = loadConfig([], {});
    expect(c).toMatchObject({
      port: 3000,
      mapping: 'mappings/tec.json',
      pollIntervalMs: 5000,
      secondaryLanguage: 'es',
      imageAllowPrivateHosts: false,
      corsOrigins: ['*'],
      imageMaxMb: 10,
    });
    expect(c.upstreamUrl).toBeUndefined();
  });

  it('trusts no proxy unless TRUST_PROXY names some, and refuses what is not an address or range', () => {
    expect(loadConfig([], {}).trustProxy).toBeUndefined();
    expect(loadConfig([], { TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(fails([], { TRUST_PROXY: 'everyone' })).toContain('TRUST_PROXY (--trust-proxy)');
    expect(fails([], { TRUST_PROXY: '10.0.0.1/8/2' })).toContain('TRUST_PROXY (--trust-proxy)');
  });

  it('lets a flag win over its environment variable, and ignores empty values', () => {
    expect(loadConfig(['--port', '8000'], { PORT: '9000' }).port).toBe(8000);
    expect(loadConfig([], { PORT: '' }).port).toBe(3000);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT (--port)'],
    [{ PORT: '70000' }, 'PORT (--port)'],
    [{ UPSTREAM_URL: 'example.com' }, 'UPSTREAM_URL (--upstream-url)'],
    [{ UPSTREAM_URL: 'http://x.test/wp-json', UPSTREAM_AUTH: 'nocolon' }, 'UPSTREAM_AUTH (--upstream-auth)'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL (--redis-url)'],
    [
      { REDIS_URL: 'redis://10.0.0.1:7000,redis://10.0.0.2:7000' },
      'REDIS_URL lists 2 nodes but REDIS_MODE is standalone: set REDIS_MODE=cluster',
    ],
    [{ REDIS_URL: 'redis://10.0.0.1:7000,http://x' }, 'REDIS_URL (--redis-url) must be a redis://'],
    [{ REDIS_MODE: 'replicas' }, 'REDIS_MODE (--redis-mode) must be standalone, cluster or sentinel'],
    [{ REDIS_MODE: 'cluster' }, 'REDIS_MODE=cluster needs REDIS_URL'],
    [
      { REDIS_MODE: 'sentinel', REDIS_URL: 'redis://s1:26379' },
      'REDIS_MODE=sentinel needs REDIS_SENTINEL_NAME',
    ],
    [
      { REDIS_URL: 'redis://r:6379', REDIS_SENTINEL_NAME: 'mymaster' },
      'REDIS_SENTINEL_NAME is set but REDIS_MODE is not sentinel',
    ],
    [
      { REDIS_MODE: 'cluster', REDIS_URL: 'redis://n1:7000/2,redis://n2:7000' },
      'REDIS_URL names a database but REDIS_MODE=cluster',
    ],
    [{ REDIS_URL: 'redis://host:port' }, 'REDIS_URL (--redis-url) must be a valid URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL (--log-level)'],
    [
      { IMAGE_ALLOW_PRIVATE_HOSTS: 'maybe' },
      'IMAGE_ALLOW_PRIVATE_HOSTS (--image-allow-private-hosts) must be true or false',
    ],
    [{ IMAGE_MAX_MB: '0' }, 'IMAGE_MAX_MB (--image-max-mb)'],
    [{ DEMO_EVENTS: '-1' }, 'DEMO_EVENTS (--demo-events)'],
    [{ CORS_ORIGINS: 'app.example' }, 'CORS_ORIGINS (--cors-origins) must be * or a comma-separated list'],
    [{ UPSTREAM_AUTH: 'a:b' }, 'UPSTREAM_AUTH is set but UPSTREAM_URL is not'],
    [{ UPSTREAM_URL: 'http://x.test/wp-json' }, 'UPSTREAM_URL is set but UPSTREAM_AUTH is not'],
  ])('names the setting and its flag for a bad value: %j', (env, named) => {
    expect(fails([], env)).toContain(named);
  });

  it('takes several Redis nodes with REDIS_MODE=cluster or sentinel', () => {
    const nodes = 'redis://10.0.0.1:7000, redis://10.0.0.2:7000';
    const cluster = loadConfig([], { REDIS_MODE: 'cluster', REDIS_URL: nodes });
    expect([cluster.redisMode, cluster.redisUrl]).toEqual([
      'cluster',
      'redis://10.0.0.1:7000,redis://10.0.0.2:7000',
    ]);
    const sentinel = loadConfig(['--redis-mode', 'sentinel', '--redis-sentinel-name', 'mymaster'], {
      REDIS_URL: 'redis://s1:26379,redis://s2:26379,redis://s3:26379',
    });
    expect([sentinel.redisMode, sentinel.redisSentinelName]).toEqual(['sentinel', 'mymaster']);
    expect(loadConfig([], { REDIS_URL: 'redis://r:6379/2' }).redisMode).toBe('standalone');
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
  ])('reads IMAGE_ALLOW_PRIVATE_HOSTS=%s as %s', (value, want) => {
    expect(loadConfig([], { IMAGE_ALLOW_PRIVATE_HOSTS: value }).imageAllowPrivateHosts).toBe(want);
  });

  it('never shows a secret in a configuration error: tokens, passwords, nor the password in a URL', () => {
    const secret = 'Sup3r-s3cret';
    const cases: Array<[Record<string, string>, string]> = [
      [{ WEBHOOK_SECRET: secret }, 'WEBHOOK_SECRET (--webhook-secret) must be at least 16 characters'],
      [{ METRICS_TOKEN: secret }, 'METRICS_TOKEN (--metrics-token) must be at least 16 characters'],
      [
        { DEMO_PASSWORD: secret.slice(0, 6) },
        'DEMO_PASSWORD (--demo-password) must be at least 8 characters',
      ],
      [{ UPSTREAM_URL: 'http://x.test/wp-json', UPSTREAM_AUTH: secret }, 'UPSTREAM_AUTH (--upstream-auth)'],
      [{ REDIS_URL: `http://:${secret}@redis:6379` }, 'REDIS_URL (--redis-url)'],
      [{ REDIS_URL: `tcp://user:${secret}@redis` }, 'REDIS_URL (--redis-url)'],
      [{ REDIS_URL: `redis://:${secret}@n1:7000,http://:${secret}@n2:7000` }, 'REDIS_URL (--redis-url)'],
      [{ UPSTREAM_URL: `ftp://editor:${secret}@wp.test/wp-json` }, 'UPSTREAM_URL (--upstream-url)'],
      [
        { UPSTREAM_URL: `https://editor:${secret}@wp.test/wp-json`, UPSTREAM_AUTH: 'editor:app pass' },
        'UPSTREAM_URL (--upstream-url) must not hold a user or password (WordPress gets them from UPSTREAM_AUTH',
      ],
      [{ PUBLIC_URL: `not a url?token=${secret}` }, 'PUBLIC_URL (--public-url)'],
    ];
    for (const [env, names] of cases) {
      const message = fails([], env);
      expect(message).toContain(names);
      expect(message).not.toContain(secret.slice(0, 6));
    }
    expect(fails([], { WEBHOOK_SECRET: secret })).toContain(
      'got a value of 12 characters (not shown: it is a secret)',
    );
    expect(fails([], { REDIS_URL: `http://:${secret}@redis:6379` })).toContain(
      'got "http://:[redacted]@redis:6379"',
    );
    // What is not a secret is still shown, so the operator sees what they typed.
    expect(fails([], { PORT: 'eighty' })).toContain('got "eighty"');
  });

  it('refuses unknown flags and lists the known ones', () => {
    expect(fails(['--prot', '1'], {})).toContain('--port');
  });

  it('accepts every valid port and refuses everything above 65535', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), (port) => {
        if (port <= 65535) expect(loadConfig([], { PORT: String(port) }).port).toBe(port);
        else expect(fails([], { PORT: String(port) })).toContain('PORT (--port)');
      }),
    );
  });

  it('chooses a CDN purger only with what it needs, naming what is missing', () => {
    const TOKEN = 'cf-token-0123456789abcdef';
    const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
    expect(
      loadConfig([], { CDN_PURGE: 'cloudflare', CDN_ZONE_ID: ZONE, CDN_PURGE_TOKEN: TOKEN }),
    ).toMatchObject({
      cdnPurge: 'cloudflare',
      cdnMaxAgeSeconds: 600,
    });
    expect(
      loadConfig([], { CDN_PURGE: 'varnish', CDN_PURGE_URL: 'http://10.0.0.5:6081, http://10.0.0.6:6081' })
        .cdnPurgeUrl,
    ).toEqual(['http://10.0.0.5:6081', 'http://10.0.0.6:6081']);
    const fastly = fails([], { CDN_PURGE: 'fastly' });
    expect(fastly).toContain('CDN_PURGE=fastly needs CDN_SERVICE_ID');
    expect(fastly).toContain('CDN_PURGE=fastly needs CDN_PURGE_TOKEN');
    expect(fails([], { CDN_PURGE: 'varnish' })).toContain('CDN_PURGE=varnish needs CDN_PURGE_URL');
    expect(fails([], { CDN_PURGE: 'akamai' })).toContain(
      'CDN_PURGE (--cdn-purge) must be varnish, fastly or cloudflare',
    );
    expect(fails([], { CDN_ZONE_ID: ZONE })).toContain('CDN_ZONE_ID is set but CDN_PURGE is not');
    expect(fails([], { CDN_PURGE: 'varnish', CDN_PURGE_URL: 'http://v:6081', CDN_ZONE_ID: ZONE })).toContain(
      "CDN_ZONE_ID is Cloudflare's",
    );
    expect(fails([], { CDN_PURGE: 'varnish', CDN_PURGE_URL: 'varnish:6081' })).toContain(
      'CDN_PURGE_URL (--cdn-purge-url)',
    );
    expect(
      fails([], { CDN_PURGE: 'varnish', CDN_PURGE_URL: 'http://v:6081', CACHE_TTL_SECONDS: '0' }),
    ).toContain('CACHE_TTL_SECONDS above 0');
    expect(loadConfig([], { CDN_TAG_HEADERS: 'Surrogate-Key,xkey' }).cdnTagHeaders).toEqual([
      'surrogate-key',
      'xkey',
    ]);
    expect(loadConfig([], { CDN_TAG_HEADERS: 'none' }).cdnTagHeaders).toEqual([]);
    expect(fails([], { CDN_TAG_HEADERS: 'x-tags' })).toContain('CDN_TAG_HEADERS');
  });

  it('names a bad secret without echoing it', () => {
    for (const [env, value] of [
      ['CDN_PURGE_TOKEN', 'short secret'],
      ['WEBHOOK_SECRET', 'short-secret'],
      ['METRICS_TOKEN', 'short-token'],
      ['UPSTREAM_AUTH', 'no-colon-secret'],
    ] as const) {
      const message = fails([], { [env]: value, CDN_PURGE: 'varnish', CDN_PURGE_URL: 'http://v:6081' });
      expect(message).toContain(env);
      expect(message).not.toContain(value);
    }
  });
});
