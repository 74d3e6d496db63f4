// Global setup of the admin project: Debian's chromium, and a local WordPress of its own for each mapping (the
// editors' screens are tried on both), unseeded: the panels' tests make the records they use (the list table's seeded
// sites are test/setup/sites.ts' adminSites). All are started with the run's other sites (test/setup/sites.ts).
import { execFileSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { stopWordPress } from '../../wordpress/upstream.ts';
import { adminSites, adminStateDir, siteOf, stateDirOf } from './sites.ts';

export interface AdminSite {
  /** `tec`, `custom`: the mapping's file name. */
  name: string;
  mapping: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** The REST root, `…/wp-json`. */
  url: string;
  usersPassword: string;
  /** The seeded users' wp-login.php password (wp.sh's WP_LOGIN_PASSWORD). */
  loginPassword: string;
  siteDir: string;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  execFileSync(
    'bash',
    [fileURLToPath(new URL('./apt-install.sh', import.meta.url)), 'chromium', 'chromium'],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 10 * 60_000,
    },
  );
  const wanted = project.config.provide.adminTargets ?? [];
  const stateDirs: string[] = [];
  const sites = await Promise.all(
    wanted.map(async ({ mapping }): Promise<AdminSite> => {
      const name = basename(mapping, '.json');
      const stateDir = stateDirOf(`admin-${name}`);
      stateDirs.push(stateDir);
      const wp = await siteOf(project, stateDir);
      // The panels' tests take the site's zone to be UTC, a fresh install's (so also on a site kept from before).
      const zone = await fetch(`${wp.url}/wp/v2/settings`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(wp.auth).toString('base64')}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ timezone: 'UTC' }),
      });
      if (!zone.ok) throw new Error(`setting the admin site's time zone failed: HTTP ${zone.status}`);
      return {
        name,
        mapping,
        origin: wp.url.replace(/\/wp-json$/, ''),
        url: wp.url,
        usersPassword: wp.usersPassword,
        loginPassword: wp.loginPassword,
        siteDir: join(stateDir, 'site'),
      };
    }),
  );
  // The list table's seeded sites too: its tests call wp.sh start on them, which must not meet this run's own start.
  await Promise.all(adminSites.map((s) => siteOf(project, adminStateDir(s.name))));
  project.provide('adminSites', sites);
  return async () => {
    if (!process.env.CI) return;
    // The panels' sites and the list table's.
    for (const dir of [...stateDirs, ...adminSites.map((s) => adminStateDir(s.name))])
      await stopWordPress(dir);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The admin project's sites: each mapping and the port to start it on. */
    adminTargets: Array<{ mapping: string; port: number }>;
    adminSites: AdminSite[];
  }
}
