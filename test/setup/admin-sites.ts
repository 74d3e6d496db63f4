// The admin project's two real WordPress sites (TEC's mapping on WP_TEST_PORT+6, the custom one on +7), as
// test/setup/admin.ts starts them; the tests reuse them through ensureWordPress (quick on a running site).

const wpPort = Number(process.env.WP_TEST_PORT ?? 8080);

/** The state dir of the admin project's site for a mapping. */
export const adminStateDir = (name: string): string =>
  process.env.WP_STATE_DIR ? `${process.env.WP_STATE_DIR}-admin-${name}` : `.wordpress/admin-${name}`;

export const adminSites = [
  { name: 'tec', mapping: 'mappings/tec.json', port: wpPort + 6 },
  { name: 'custom', mapping: 'mappings/custom.json', port: wpPort + 7 },
] as const;
