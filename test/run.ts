// `npm test`'s vitest run, in lanes side by side. Vitest gives a run one worker less than the machine has cores (one
// on two cores), runs every global setup (the WordPress sites, Chromium) before the first test, and runs the projects
// that share a WordPress site one file at a time after the others, so one `vitest run` is a queue of single files, many
// of them waiting on WordPress, Chromium or a sleeping fault while a core stays idle. Each lane is a vitest process of
// its own, its projects as before. Arguments make one plain vitest run instead.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface LaneSpec {
  /** The projects it runs (`--project` each). */
  projects: string[];
  /** Only these files of them (vitest's file filters). */
  files?: string[];
  /** Not these (`--exclude` globs). */
  exclude?: string[];
  /** One part of their files (vitest's `--shard`, `index/count`). */
  shard?: string;
  /**
   * A set of local WordPress sites of its own, apart from the other lanes' (state dirs `<WP_STATE_DIR>-<set>-<site>`,
   * ports from `WP_TEST_PORT` + `portOffset`): a lane of a project whose other files run in another lane.
   */
  sites?: { set: string; portOffset: number };
}

/** The visibility matrix: a third of the `wordpress` project's time (464 s of 1035 s), alone on a site of its own. */
const MATRIX = 'test/integration/visibility-matrix.test.ts';
/**
 * The `wordpress` project's other files of 20 s and more (measured in lanes at load 8–10: together 445 s as a lane, the
 * rest 443 s), on a second site: a list, so the two lanes stay even; a new file runs with the rest.
 */
const WORDPRESS_SLOW = [
  'large-crawl',
  'undo-reuse',
  'fuzz',
  'organizers',
  'venues',
  'cache-narrow',
  'answer-shapes',
  'images',
  'cache-freshness',
  'redis-cluster',
  'redis-sentinel',
].map((name) => `test/integration/${name}.test.ts`);

/**
 * Files that hold the gateway to timings while WordPress or Redis fails under them (a crash mid-write, a slow upstream,
 * a spike of cold URLs): they run after the lanes, alone, as they did when the suite was one queue; beside six other
 * lanes on two cores their deadlines measured the machine (a 4.5 s bound read 4.6 s, a restarted PHP found the old one
 * still exiting).
 */
const ALONE = [
  'test/e2e/faults.test.ts',
  'test/e2e/faults-redis.test.ts',
  'test/e2e/recurrence-faults.test.ts',
  'src/gateway.test.ts',
  // The upstream client's slots and deadlines in 100–450 ms (two of them failed in the lanes at load 13–15).
  'src/wp/client.test.ts',
];
const notAlone = ALONE.map((f) => `**/${f}`);

/**
 * The lanes: the pure projects with the custom mapping's mock and Redis; the mock; the real WordPress project in
 * three, each on a tec site of its own: the visibility matrix (+2), its other slow files (+3) and the rest (+0); the
 * processes as users run them (site +4, Chromium, nginx, Varnish); the editors' screens and the custom mapping's real
 * WordPress (+1, +6…+9). Their sites and ports are apart (vitest.config.ts), and Redis keys carry each test's own
 * prefix. TEST_LANES replaces them: lanes apart by spaces, projects by commas (`TEST_LANES="unit,mock e2e"`; one lane
 * is a single vitest run).
 */
const LANES: LaneSpec[] = process.env.TEST_LANES
  ? process.env.TEST_LANES.trim()
      .split(/\s+/)
      .map((lane) => ({ projects: lane.split(',') }))
  : [
      { projects: ['unit', 'mock-custom', 'redis'], exclude: notAlone },
      { projects: ['mock'] },
      { projects: ['wordpress'], files: [MATRIX], sites: { set: 'matrix', portOffset: 2 } },
      { projects: ['wordpress'], files: WORDPRESS_SLOW, sites: { set: 'slow', portOffset: 3 } },
      { projects: ['wordpress'], exclude: [MATRIX, ...WORDPRESS_SLOW].map((f) => `**/${f}`) },
      { projects: ['e2e'], exclude: notAlone },
      { projects: ['admin', 'wordpress-custom'] },
    ];

/** The vitest arguments and environment of a lane. */
function laneRun(lane: LaneSpec): { args: string[]; env: NodeJS.ProcessEnv; label: string } {
  const args = [
    ...lane.projects.flatMap((p) => ['--project', p]),
    ...(lane.exclude ?? []).flatMap((g) => ['--exclude', g]),
    ...(lane.shard ? ['--shard', lane.shard] : []),
    ...(lane.files ?? []),
  ];
  // The unit project's own `exclude` replaces the command line's (vitest.config.ts adds TEST_EXCLUDE to it).
  // Freshness bounds (test/integration/cache-support.ts `within`) get three times as long beside the other lanes, and
  // a gateway started as a process (bench/lib.ts `startChild`: its index crawled from a site at load 15) 180 s to be
  // ready instead of 60 (test/e2e/deploy.test.ts's two instances once took longer).
  const env: NodeJS.ProcessEnv = { TEST_TIME_SLACK: '3', BENCH_START_SECONDS: '180', ...process.env };
  if (lane.exclude) env.TEST_EXCLUDE = lane.exclude.join(',');
  if (lane.sites) {
    env.WP_TEST_PORT = String(Number(process.env.WP_TEST_PORT ?? 8080) + lane.sites.portOffset);
    env.WP_STATE_DIR = `${process.env.WP_STATE_DIR ?? '.wordpress/lane'}-${lane.sites.set}`;
  }
  const label = [lane.projects.join(','), lane.shard, lane.sites?.set].filter(Boolean).join(':');
  return { args, env, label };
}

const vitest = fileURLToPath(new URL('vitest.mjs', import.meta.resolve('vitest/package.json')));
/** test/summary-reporter.ts's line. */
const SUMMARY = /^Tests: (\d+) passed, (\d+) failed, (\d+) skipped$/;

/** The running vitest processes, which a signal to this one reaches too (CI's timeout sends SIGTERM to it alone). */
const children = new Set<ReturnType<typeof spawn>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exitCode = 1;
  });

/** Clock ticks a second of /proc's CPU times (100 on Linux unless the kernel says otherwise). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU seconds of this process's children that have ended (their own children's included, once reaped): /proc/self/stat's
 * cutime + cstime; undefined off Linux. A lane's share is what this grows by when its vitest ends. The WordPress sites a
 * lane starts run detached (wordpress/wp.sh) and are not in it: PHP's and MariaDB's CPU is left out.
 */
function endedChildrenCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5), counted from 1; the slice starts at field 3.
    return (Number(fields[13]) + Number(fields[14])) / TICKS;
  } catch {
    return undefined;
  }
}
let cpuSeen = endedChildrenCpuSeconds();

interface Lane {
  code: number;
  /** CPU minutes its vitest process and their children used (test/run.ts's ended children's, when it ended). */
  cpuMinutes?: number;
  counts?: number[];
  /** test/summary-reporter.ts's `Failed: …` lines. */
  failures: string[];
}

/** Runs vitest with `args`, each output line prefixed with `label` (none: passed through as it is). */
function runVitest(args: string[], label?: string, env = process.env): Promise<Lane> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...args], {
      env,
      stdio: ['inherit', label ? 'pipe' : 'inherit', label ? 'pipe' : 'inherit'],
    });
    children.add(child);
    const lane: Lane = { code: 1, failures: [] };
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ] as const) {
      let rest = '';
      from?.setEncoding('utf8').on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) {
          const m = SUMMARY.exec(line);
          if (m) lane.counts = m.slice(1).map(Number);
          if (line.startsWith('Failed: ')) lane.failures.push(line);
          to.write(`[${label}] ${line}\n`);
        }
      });
      from?.on('end', () => rest && to.write(`[${label}] ${rest}\n`));
    }
    child.on('close', (code, signal) => {
      children.delete(child);
      lane.code = code ?? (signal ? 1 : 0);
      const cpu = endedChildrenCpuSeconds();
      if (cpu !== undefined && cpuSeen !== undefined) lane.cpuMinutes = (cpu - cpuSeen) / 60;
      cpuSeen = cpu;
      resolve(lane);
    });
  });
}

const args = process.argv.slice(2);
if (args.length) {
  process.exitCode = (await runVitest(args)).code;
} else {
  const t0 = performance.now();
  // Each lane's own time, as it ends, and the CPU it used (nothing off Linux): what to balance when one lane ends long
  // after the others, and what to cut when they all end late (the lanes share the machine's cores).
  const laneDone = (label: string, lane: Lane) =>
    process.stdout.write(
      `[${label}] lane done in ${((performance.now() - t0) / 60_000).toFixed(1)} min` +
        `${lane.cpuMinutes === undefined ? '' : `, ${lane.cpuMinutes.toFixed(1)} CPU min`}\n`,
    );
  // TEST_LANES_ONLY=wordpress,e2e: only those projects, in their lanes (the lanes' other projects left out).
  const only = process.env.TEST_LANES_ONLY?.split(',');
  const runs = LANES.map((lane) =>
    only ? { ...lane, projects: lane.projects.filter((p) => only.includes(p)) } : lane,
  )
    .filter((lane) => lane.projects.length)
    .map(laneRun);
  // Each lane's command first, so a lane can be run again alone; TEST_LANES_PRINT=1 prints them and stops.
  for (const { args, env, label } of runs) {
    const sites =
      env.WP_STATE_DIR === process.env.WP_STATE_DIR
        ? ''
        : `WP_TEST_PORT=${env.WP_TEST_PORT} WP_STATE_DIR=${env.WP_STATE_DIR} `;
    process.stdout.write(
      `[${label}] TEST_TIME_SLACK=${env.TEST_TIME_SLACK} ${sites}npx vitest run ${args.map((a) => (a.includes('*') ? `'${a}'` : a)).join(' ')}\n`,
    );
  }
  if (process.env.TEST_LANES_PRINT) process.exit(0);
  const lanes = await Promise.all(
    runs.map(async ({ args, env, label }) => {
      const lane = await runVitest(args, label, env);
      laneDone(label, lane);
      return lane;
    }),
  );
  // Then the timing-bound files, alone (not with TEST_LANES, which names every lane itself).
  const aloneProjects = ['unit', 'e2e'].filter((p) => !only || only.includes(p));
  if (!process.env.TEST_LANES && aloneProjects.length) {
    const args = [...aloneProjects.flatMap((p) => ['--project', p]), ...ALONE];
    process.stdout.write(`[alone] npx vitest run ${args.join(' ')}\n`);
    const alone = await runVitest(args, 'alone');
    lanes.push(alone);
    laneDone('alone', alone);
  }
  const total = [0, 0, 0];
  for (const lane of lanes) for (const [i, n] of (lane.counts ?? []).entries()) total[i]! += n;
  // A lane that ended without its summary (it crashed) counts as a failure.
  if (lanes.some((l) => !l.counts)) total[1]! += 1;
  const minutes = ((performance.now() - t0) / 60_000).toFixed(1);
  const cpu = lanes.reduce((sum, l) => sum + (l.cpuMinutes ?? 0), 0);
  process.stdout.write(
    `\nLanes: ${runs.map((r) => r.label).join(' | ')} in ${minutes} min` +
      `${cpu ? `, ${cpu.toFixed(1)} CPU min (WordPress's PHP and MariaDB not counted)` : ''}\n`,
  );
  // Every failure again, last: a CI log cut to its tail still names them.
  for (const [i, lane] of lanes.entries()) {
    const label = runs[i]?.label ?? 'alone';
    for (const line of lane.failures) process.stdout.write(`[${label}] ${line}\n`);
    if (!lane.counts) process.stdout.write(`[${label}] ended without a summary (exit ${lane.code})\n`);
  }
  process.stdout.write(`Tests: ${total[0]} passed, ${total[1]} failed, ${total[2]} skipped\n`);
  process.exitCode = lanes.some((l) => l.code !== 0) ? 1 : 0;
}
