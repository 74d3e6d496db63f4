// Global setup of the real-WordPress projects: start (or reuse) the local WordPress for the project's mapping.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureWordPress, stopWordPress } from '../../wordpress/upstream.ts';

const isFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/**
 * The port of this state dir's site when it already runs (wp.sh records it), else the first free port from the
 * configured one: another checkout's site on 8080 must not stop this suite.
 */
export async function portFor(stateDir: string, wanted: number): Promise<number> {
  try {
    const recorded = Number(readFileSync(join(stateDir, 'port'), 'utf8').trim());
    if (recorded && !(await isFree(recorded))) return recorded;
  } catch {
    // no site yet
  }
  // Steps of two: the tec and custom projects start side by side from neighbouring ports.
  for (let port = wanted; port < wanted + 100; port += 2) if (await isFree(port)) return port;
  throw new Error(`no free port in ${wanted}–${wanted + 99} for the local WordPress`);
}

/** The state dir of the local site `name`: `.wordpress/<name>`, or `<WP_STATE_DIR>-<name>` when that is set. */
export const stateDirOf = (name: string): string =>
  process.env.WP_STATE_DIR ? `${process.env.WP_STATE_DIR}-${name}` : `.wordpress/${name}`;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const target = project.config.provide.target as { mapping: string; port: number; site?: string };
  // A project may have a site of its own (e2e writes through two gateways), named apart from the mapping's.
  const name = target.site ?? basename(target.mapping, '.json');
  const stateDir = stateDirOf(name);
  const port = await portFor(stateDir, target.port);
  const wp = await ensureWordPress({ mapping: target.mapping, stateDir, port });
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
