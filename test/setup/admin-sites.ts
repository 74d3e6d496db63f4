// Global setup of the admin project: its two real WordPress sites (TEC's mapping on WP_TEST_PORT+6, the custom one on
// +7), started side by side; the tests reuse them through ensureWordPress (quick on a running site).
import { ensureWordPress, stopWordPress } from '../../wordpress/upstream.ts';

const wpPort = Number(process.env.WP_TEST_PORT ?? 8080);

/** The state dir of the admin project's site for a mapping. */
export const adminStateDir = (name: string): string =>
  process.env.WP_STATE_DIR ? `${process.env.WP_STATE_DIR}-admin-${name}` : `.wordpress/admin-${name}`;

export const adminSites = [
  { name: 'tec', mapping: 'mappings/tec.json', port: wpPort + 6 },
  { name: 'custom', mapping: 'mappings/custom.json', port: wpPort + 7 },
] as const;

export default async function setup(): Promise<() => Promise<void>> {
  await Promise.all(
    adminSites.map((s) =>
      ensureWordPress({ mapping: s.mapping, stateDir: adminStateDir(s.name), port: s.port }),
    ),
  );
  // Locally the sites keep running between runs; CI leaves nothing behind.
  return async () => {
    if (process.env.CI) await Promise.all(adminSites.map((s) => stopWordPress(adminStateDir(s.name))));
  };
}
