// Global setup of the real-WordPress projects: start (or reuse) the local WordPress for the project's mapping, with
// the run's other sites (test/setup/sites.ts).
import { basename, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopWordPress } from '../../wordpress/upstream.ts';
import { siteOf, stateDirOf } from './sites.ts';

// Where they were before sites.ts, for the files that import them from here.
export { portFor, stateDirOf } from './sites.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const target = project.config.provide.target as { mapping: string; port: number; site?: string };
  // A project may have a site of its own (e2e writes through two gateways), named apart from the mapping's.
  const stateDir = stateDirOf(target.site ?? basename(target.mapping, '.json'));
  const wp = await siteOf(project, stateDir);
  project.provide('upstream', { ...wp, siteDir: join(stateDir, 'site') });
  // Locally the site keeps running between runs (a second run starts in a second); CI leaves nothing behind.
  return async () => {
    if (process.env.CI) await stopWordPress(stateDir);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    target: { kind: 'mock' | 'wordpress'; mapping: string; port?: number; site?: string };
    upstream: {
      url: string;
      auth: string;
      usersPassword: string;
      /** wp-login.php password of the five users, and `…/wp-admin/` (wordpress/upstream.ts). */
      loginPassword: string;
      adminUrl: string;
      siteDir: string;
    };
  }
}
