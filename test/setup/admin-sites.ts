// The list table's and settings screen's two real WordPress sites, seeded with the sample calendar (TEC's mapping
// from WP_TEST_PORT+8, the custom one from +9; the panels' unseeded sites are on +6 and +7): started by the first
// test that asks, reused through ensureWordPress (quick on a running site).

import { stateDirOf } from './wordpress.ts';

const wpPort = Number(process.env.WP_TEST_PORT ?? 8080);

/** The state dir of the list table's site for a mapping. */
export const adminStateDir = (name: string): string => stateDirOf(`admin-list-${name}`);

export const adminSites = [
  { name: 'tec', mapping: 'mappings/tec.json', port: wpPort + 8 },
  { name: 'custom', mapping: 'mappings/custom.json', port: wpPort + 9 },
] as const;
