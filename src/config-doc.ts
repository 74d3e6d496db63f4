// `--help` and the configuration table of docs/setup.md, generated from the config schema and its setting docs.
import { type Config, configSchema, settings } from './config.ts';

/** A default as docs/setup.md shows it: strings in backticks, lists joined, numbers and booleans as they are. */
function shownDefault(key: keyof Config, defaults: Partial<Config>): string {
  const v = defaults[key];
  if (v === undefined) return settings[key].unset ?? '—';
  if (Array.isArray(v)) return `\`${v.join(',')}\``;
  return typeof v === 'string' ? `\`${v}\`` : String(v);
}

const defaults = (): Partial<Config> => configSchema.parse({});

/** The markdown table of every setting (docs/setup.md's "Configuration" table is exactly this). */
export function configTable(): string {
  const d = defaults();
  const rows = (Object.keys(settings) as Array<keyof Config>).map((key) => {
    const s = settings[key];
    return `| \`${s.env}\` | \`--${s.flag}\` | ${shownDefault(key, d)} | ${s.meaning} |`;
  });
  return ['| variable | flag | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

/** The text of `--help`: usage, then every setting with its variable, flag, default and meaning. */
export function helpText(): string {
  const d = defaults();
  const lines = [
    'Usage: npm start -- [--flag value ...]   (or: node bin/calendar-gateway.js [--flag value ...])',
    '',
    'Every setting can be given as an environment variable or a flag; flags win.',
    'Without UPSTREAM_URL the gateway runs in demo mode on an in-memory WordPress.',
    '',
  ];
  for (const key of Object.keys(settings) as Array<keyof Config>) {
    const s = settings[key];
    const def = shownDefault(key, d).replaceAll('`', '');
    lines.push(
      `  --${s.flag} <value>`,
      `      ${s.env}, default ${def}`,
      `      ${s.meaning.replaceAll('`', '')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
