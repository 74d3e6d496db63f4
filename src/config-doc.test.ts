import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema, settings } from './config.ts';
import { configTable, helpText } from './config-doc.ts';

describe('configuration docs', () => {
  it('lists every setting of the schema in --help, with its variable, flag and default', () => {
    const help = helpText();
    for (const s of Object.values(settings))
      expect(help).toContain(`  --${s.flag} <value>\n      ${s.env}, default `);
    expect(help).toContain('--cache-ttl-seconds <value>\n      CACHE_TTL_SECONDS, default 60');
    expect(help).toContain('--upstream-url <value>\n      UPSTREAM_URL, default (demo mode)');
    // --help has no "below": every setting's meaning stands on its own.
    expect(help).not.toMatch(/\bbelow\b/);
    expect(help).toContain('docs/setup.md, "Mappings"');
  });

  it('is the table of docs/setup.md, so the docs cannot drift from the schema', () => {
    const readme = readFileSync(new URL('../docs/setup.md', import.meta.url), 'utf8');
    expect(readme).toContain(configTable());
  });

  it('has one documented row per schema key', () => {
    const rows = configTable().split('\n').slice(2);
    expect(rows).toHaveLength(Object.keys(configSchema.shape).length);
  });
});
