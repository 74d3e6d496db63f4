// `npm run bench:host`: how long this machine takes a core away from a thread that never stops wanting it; the floor
// under every loop-lag and stall figure of the other benches. One process a core (pinned with taskset where it can
// be) spins for BENCH_HOST_SECONDS (10), reading the clock; each jump of the clock over 1 ms is a gap in which the
// spinner did not run. Each gap splits, from Linux's schedstat of the spinner's thread read just after it, into the
// wait for a core (the guest's own scheduler running another of its tasks) and the time off any core, neither
// running nor waiting: on a virtual machine, the host running another guest on the real core (steal). Each core's
// steal share over the run (/proc/stat) is printed beside it. Run it on an otherwise idle machine: the gaps it finds
// then are the machine's alone (a gateway's loop lag cannot be shorter than the longest of them).
import { execFileSync, spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { coreTicks } from './busy/cpu.ts';
import { pct } from './lib.ts';
import { runDelayMeter } from './run-delay.ts';

interface Gap {
  ms: number;
  waitMs: number;
}

/** Spins for `seconds`, and returns each gap over 1 ms with its wait for a core (the rest of it was off any core). */
function spin(seconds: number): Gap[] {
  const waited = runDelayMeter();
  const gaps: Gap[] = [];
  const end = performance.now() + seconds * 1000;
  let last = performance.now();
  let lastWait = waited();
  while (last < end) {
    const now = performance.now();
    if (now - last > 1) {
      const w = waited();
      // The run delay since the last gap also holds the waits of gaps under 1 ms: at most the gap itself is this one's.
      gaps.push({ ms: now - last, waitMs: Math.min(now - last, w - lastWait) });
      lastWait = w;
    }
    last = now;
  }
  return gaps;
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

if (process.argv[2] === '--spin') {
  process.stdout.write(JSON.stringify(spin(Number(process.argv[3]))));
} else {
  const seconds = Number(process.env.BENCH_HOST_SECONDS ?? 10);
  const cores = availableParallelism();
  const pinned = hasTaskset();
  const self = fileURLToPath(import.meta.url);
  const before = coreTicks();
  const runs = await Promise.all(
    Array.from({ length: cores }, (_, core) => {
      const args = [process.execPath, self, '--spin', String(seconds)];
      const child = pinned ? spawn('taskset', ['-c', String(core), ...args]) : spawn(args[0]!, args.slice(1));
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      return new Promise<Gap[]>((done, fail) =>
        child.on('close', (code) =>
          code === 0
            ? done(JSON.parse(out) as Gap[])
            : fail(new Error(`spinner on core ${core} exited ${code}`)),
        ),
      );
    }),
  );
  const after = coreTicks();
  console.log(
    `${cores} spinners, ${pinned ? 'each pinned to its core' : 'unpinned (no taskset)'}, ${seconds} s each; gaps over 1 ms:`,
  );
  for (const [core, gaps] of runs.entries()) {
    const lost = gaps.reduce((a, g) => a + g.ms, 0);
    const waited = gaps.reduce((a, g) => a + g.waitMs, 0);
    const longest = gaps.reduce<Gap>((a, g) => (g.ms > a.ms ? g : a), { ms: 0, waitMs: 0 });
    const ms = gaps.map((g) => g.ms);
    const over = (n: number) => ms.filter((m) => m > n).length;
    const [, all0, steal0] = before[core] ?? [0, 0, 0];
    const [, all1, steal1] = after[core] ?? [0, 0, 0];
    const stolen = ((steal1 - steal0) / Math.max(1, all1 - all0)) * 100;
    console.log(
      `${pinned ? `core ${core}` : `spinner ${core}`}: ${gaps.length} gaps, ${lost.toFixed(0)} ms lost (${((lost / (seconds * 1000)) * 100).toFixed(1)} %), of it waiting for a core ${waited.toFixed(0)} ms and off any core ${(lost - waited).toFixed(0)} ms; p50 ${pct(ms, 50).toFixed(1)} ms, p99 ${pct(ms, 99).toFixed(1)} ms, longest ${longest.ms.toFixed(1)} ms (waiting ${longest.waitMs.toFixed(1)} ms of it); over 5 ms ${over(5)}, over 10 ms ${over(10)}, over 20 ms ${over(20)}; the core's steal ${stolen.toFixed(1)} %`,
    );
  }
}
