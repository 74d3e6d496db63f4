// The local WordPress sites of a run, started side by side by the first global setup that needs one (each project's
// setup then waits for its own): the sites of one seed share it, since wordpress/wp.sh lets the first seed and the
// others load its dump, and the rest install at the same time instead of one after another.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureWordPress, type WordPressUpstream } from '../../wordpress/upstream.ts';

const isFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/**
 * The port of this state dir's site when it already runs (wp.sh records it), else the first free port from the
 * configured one that no other site of this run was given: another checkout's site on 8080 must not stop this suite.
 */
export async function portFor(stateDir: string, wanted: number, taken = new Set<number>()): Promise<number> {
  try {
    const recorded = Number(readFileSync(join(stateDir, 'port'), 'utf8').trim());
    if (recorded && !(await isFree(recorded))) return recorded;
  } catch {
    // no site yet
  }
  // Steps of ten: every site of a run wants its own port of WP_TEST_PORT + 0…9, and the lanes (test/run.ts) are
  // processes apart that cannot see each other's choices; stepping by ten keeps each site on its own last digit, so two
  // lanes that find their ports taken (another checkout's sites left running) never both move onto the same one.
  for (let port = wanted; port < wanted + 200; port += 10)
    if (!taken.has(port) && (await isFree(port))) return port;
  throw new Error(`no free port of ${wanted} + 10k (k < 20) for the local WordPress`);
}

/** The state dir of the local site `name`: `.wordpress/<name>`, or `<WP_STATE_DIR>-<name>` when that is set. */
export const stateDirOf = (name: string): string =>
  process.env.WP_STATE_DIR ? `${process.env.WP_STATE_DIR}-${name}` : `.wordpress/${name}`;

const wpPort = Number(process.env.WP_TEST_PORT ?? 8080);

/**
 * The port of a site a test file starts for itself (`ensureWordPress` in a `beforeAll`): `WP_TEST_PORT` + `offset`,
 * or the next free one ten by ten. Never an ephemeral port (`listen(0)`): the site binds it only after its install
 * (tens of seconds), and meanwhile any outgoing connection of the machine may take an ephemeral port (CI of
 * 2026-11-30: "php -S exited (port 33703 in use?)"). Offsets in use: 5 (wordpress.integration), 305 (wp-tools).
 */
export const ownSitePort = (stateDir: string, offset: number): Promise<number> =>
  portFor(stateDir, wpPort + offset);

/** The list table's and settings screen's seeded sites (test/admin/list-settings.test.ts, wp-tools.test.ts), one per mapping. */
export const adminSites = [
  { name: 'tec', mapping: 'mappings/tec.json', port: wpPort + 8 },
  { name: 'custom', mapping: 'mappings/custom.json', port: wpPort + 9 },
] as const;

/** The state dir of the list table's site for a mapping. */
export const adminStateDir = (name: string): string => stateDirOf(`admin-list-${name}`);

interface Site {
  stateDir: string;
  mapping: string;
  port: number;
  seed: boolean;
}

/** The sites a project's tests use: its `target`'s, or the admin project's panels' and list table's. */
function sitesOf(project: TestProject): Site[] {
  const { target, adminTargets } = project.config.provide;
  if (target?.kind === 'wordpress') {
    const name = target.site ?? basename(target.mapping, '.json');
    return [{ stateDir: stateDirOf(name), mapping: target.mapping, port: target.port ?? wpPort, seed: true }];
  }
  if (!adminTargets) return [];
  return [
    ...adminTargets.map(({ mapping, port }) => ({
      stateDir: stateDirOf(`admin-${basename(mapping, '.json')}`),
      mapping,
      port,
      seed: false,
    })),
    ...adminSites.map((s) => ({
      stateDir: adminStateDir(s.name),
      mapping: s.mapping,
      port: s.port,
      seed: true,
    })),
  ];
}

// On globalThis, not in this module: vitest loads each project's global setup files apart.
const shared = globalThis as typeof globalThis & {
  calendarGatewayTestSites?: Map<string, Promise<WordPressUpstream>>;
};
shared.calendarGatewayTestSites ??= new Map();
const started = shared.calendarGatewayTestSites;

/**
 * The site of `stateDir` for `project`'s global setup. The first call starts the sites of every project that has test
 * files in this run, at once; later calls wait for theirs.
 */
export async function siteOf(project: TestProject, stateDir: string): Promise<WordPressUpstream> {
  if (!started.has(stateDir)) {
    const files = project.vitest.state.getFilepaths();
    const running = project.vitest.projects.filter((p) => files.some((f) => p.matchesTestGlob(f)));
    // Every site is registered before this function first waits, so calls side by side (the admin setup asks for two
    // at once) never start one site twice; ports are chosen one after another, so two sites never get the same one.
    const taken = new Set<number>();
    let ports: Promise<unknown> = Promise.resolve();
    for (const site of [...running, project].flatMap(sitesOf)) {
      if (started.has(site.stateDir)) continue;
      const port = ports.then(() => portFor(site.stateDir, site.port, taken));
      ports = port.then((p) => taken.add(p)).catch(() => {});
      const up = port.then((p) =>
        ensureWordPress({ mapping: site.mapping, stateDir: site.stateDir, port: p, seed: site.seed }),
      );
      // A site whose setup never comes (its project failed first) must not end the run as an unhandled rejection.
      up.catch(() => {});
      started.set(site.stateDir, up);
    }
  }
  const up = started.get(stateDir);
  if (!up) throw new Error(`no local WordPress site is planned for ${stateDir}`);
  return up;
}
