// `npm run test:lanes`: the suite's vitest run in lanes side by side. Vitest gives a run one worker less than the
// machine has cores (one on two cores) and runs the projects that share a WordPress site one file at a time, so the
// whole suite is a queue of single files: each lane is a vitest process of its own, its projects as before. Not `npm test`'s: on a machine
// already busy the lanes only fight for its two cores (docs/testing.md). Arguments make one plain vitest run instead.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The lanes: the browser and process tests (own WordPress sites, Chromium, nginx, Varnish), and the rest; their sites
 * and ports are apart (vitest.config.ts), and Redis keys carry each test's own prefix. TEST_LANES replaces them:
 * lanes apart by spaces, projects by commas (`TEST_LANES="unit,mock e2e"`; one lane is a single vitest run).
 */
const LANES = process.env.TEST_LANES
  ? process.env.TEST_LANES.trim()
      .split(/\s+/)
      .map((lane) => lane.split(','))
  : [
      ['e2e', 'admin'],
      ['unit', 'mock', 'mock-custom', 'redis', 'wordpress', 'wordpress-custom'],
    ];

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

interface Lane {
  code: number;
  counts?: number[];
}

/** Runs vitest with `args`, each output line prefixed with `label` (none: passed through as it is). */
function runVitest(args: string[], label?: string): Promise<Lane> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, 'run', ...args], {
      stdio: ['inherit', label ? 'pipe' : 'inherit', label ? 'pipe' : 'inherit'],
    });
    children.add(child);
    const lane: Lane = { code: 1 };
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
          to.write(`[${label}] ${line}\n`);
        }
      });
      from?.on('end', () => rest && to.write(`[${label}] ${rest}\n`));
    }
    child.on('close', (code, signal) => {
      children.delete(child);
      lane.code = code ?? (signal ? 1 : 0);
      resolve(lane);
    });
  });
}

const args = process.argv.slice(2);
if (args.length) {
  process.exitCode = (await runVitest(args)).code;
} else {
  const t0 = performance.now();
  const lanes = await Promise.all(
    LANES.map((projects) =>
      runVitest(
        projects.flatMap((p) => ['--project', p]),
        projects.join(','),
      ),
    ),
  );
  const total = [0, 0, 0];
  for (const lane of lanes) for (const [i, n] of (lane.counts ?? []).entries()) total[i]! += n;
  // A lane that ended without its summary (it crashed) counts as a failure.
  if (lanes.some((l) => !l.counts)) total[1]! += 1;
  const minutes = ((performance.now() - t0) / 60_000).toFixed(1);
  process.stdout.write(`\nLanes: ${LANES.map((l) => l.join(',')).join(' | ')} in ${minutes} min\n`);
  process.stdout.write(`Tests: ${total[0]} passed, ${total[1]} failed, ${total[2]} skipped\n`);
  process.exitCode = lanes.some((l) => l.code !== 0) ? 1 : 0;
}
