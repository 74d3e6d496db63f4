// Test projects: fast unit tests, and one integration suite run against the mock and the real WordPress.
import { defineConfig } from 'vitest/config';
import { guard } from './test/slack.ts';

type Target = { kind: 'mock' | 'wordpress'; mapping: string; port?: number };

// Timeouts are hang guards, not claims: × TEST_TIME_SLACK in the lanes (test/slack.ts), as every test's own is.
const integration = (name: string, target: Target, include = ['test/integration/**/*.test.ts']) => ({
  extends: true as const,
  test: {
    name,
    include,
    provide: { target },
    globalSetup: ['test/setup/redis.ts', ...(target.kind === 'wordpress' ? ['test/setup/wordpress.ts'] : [])],
    fileParallelism: target.kind !== 'wordpress',
    testTimeout: guard(30_000),
    hookTimeout: guard(120_000),
  },
});

/** Ports of the local WordPress sites (override to run a second copy of the suite beside a running one). */
const wpPort = Number(process.env.WP_TEST_PORT ?? 8080);

/** The part of the suite that also runs against the custom mapping (post type `event`, meta `event_start`…). */
const customPart = [
  'test/integration/events-read.test.ts',
  'test/integration/events-write.test.ts',
  'test/integration/recurrence-read.test.ts',
  'test/integration/recurrence-write.test.ts',
  'test/integration/geo.test.ts',
];

export default defineConfig({
  test: {
    env: { LOG_LEVEL: 'silent' },
    reporters: ['default', './test/summary-reporter.ts'],
    // expect.poll's limit (vitest's default 1 s), a hang guard like the rest.
    expect: { poll: { timeout: guard(5_000) } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'src/**/*.test.ts',
            'mocks/**/*.test.ts',
            'wordpress/**/*.test.ts',
            'packages/elements/src/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          // A project's own `exclude` replaces the command line's: TEST_EXCLUDE (globs, comma-separated) adds to it,
          // as test/run.ts's lanes need (its timing-bound files run alone after them).
          exclude: [
            '**/*.integration.test.ts',
            ...(process.env.TEST_EXCLUDE?.split(',').filter(Boolean) ?? []),
          ],
          // Property tests are CPU-bound: a few seconds alone, up to 40 s seen on a loaded two-core machine.
          testTimeout: guard(60_000),
        },
      },
      {
        extends: true,
        // Cache tiers against a real Redis (started by the tests when it is stopped).
        test: {
          name: 'redis',
          include: ['test/cache/**/*.test.ts', 'test/webhooks/**/*.test.ts'],
          globalSetup: ['test/setup/redis.ts'],
          fileParallelism: false,
          testTimeout: guard(30_000),
        },
      },
      {
        extends: true,
        // Real processes as users run them: the gateway from `npm start`, Debian's headless Chromium and nginx, Redis.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Its own local WordPress (two gateways write to one upstream in test/e2e/deploy.test.ts).
          provide: {
            target: { kind: 'wordpress', mapping: 'mappings/tec.json', port: wpPort + 4, site: 'e2e' },
          },
          globalSetup: ['test/setup/redis.ts', 'test/setup/e2e-tools.ts', 'test/setup/wordpress.ts'],
          fileParallelism: false,
          testTimeout: guard(60_000),
          hookTimeout: guard(180_000),
        },
      },
      {
        extends: true,
        // The editors' screens in wp-admin (companion plugin) in Debian's Chromium, on a tec and a custom site of their own.
        test: {
          name: 'admin',
          include: ['test/admin/**/*.test.ts'],
          provide: {
            adminTargets: [
              { mapping: 'mappings/tec.json', port: wpPort + 6 },
              { mapping: 'mappings/custom.json', port: wpPort + 7 },
            ],
          },
          globalSetup: ['test/setup/admin.ts'],
          fileParallelism: false,
          testTimeout: guard(90_000),
          hookTimeout: guard(300_000),
        },
      },
      integration('mock', { kind: 'mock', mapping: 'mappings/tec.json' }),
      integration('mock-custom', { kind: 'mock', mapping: 'mappings/custom.json' }, customPart),
      integration('wordpress', { kind: 'wordpress', mapping: 'mappings/tec.json', port: wpPort }, [
        'test/integration/**/*.test.ts',
        'wordpress/**/*.integration.test.ts',
      ]),
      integration(
        'wordpress-custom',
        { kind: 'wordpress', mapping: 'mappings/custom.json', port: wpPort + 1 },
        customPart,
      ),
    ],
  },
});
