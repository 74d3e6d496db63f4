// Preloaded into a benchmarked gateway (`node --import ./bench/busy/stalls.ts`): its loop's lag, and what a spike was.
// A timer every BUSY_STALLS_STEP_MS (5) notes each time it fires late by more than BUSY_STALLS_OVER_MS (5), with the
// main thread's CPU time over that gap; a PerformanceObserver notes every GC pause over 1 ms. On exit both go to
// BUSY_STALLS_FILE as JSON, their starts in µs of the monotonic clock (the CPU profile's). A block of the loop of T ms
// makes the timer late by T less up to one step. A late firing whose gap holds little CPU and no GC pause is the thread
// waiting for a core (the machine's), not the gateway's own work.
import { writeFileSync } from 'node:fs';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';

const file = process.env.BUSY_STALLS_FILE;
const over = Number(process.env.BUSY_STALLS_OVER_MS ?? 5);
const step = Number(process.env.BUSY_STALLS_STEP_MS ?? 5);

export interface Late {
  at: number;
  lateMs: number;
  /** The main thread's CPU time during the gap (ms). */
  cpuMs: number;
}
/** The GC kinds perf_hooks names (`constants.NODE_PERFORMANCE_GC_*`), as printed. */
export const GC_KINDS: ReadonlyArray<[kind: number, name: string]> = [
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental marking'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak callbacks'],
];

export interface GcPause {
  at: number;
  ms: number;
  /** perf_hooks' constants: 1 minor (scavenge), 4 major (mark-compact), 8 incremental marking, 16 weak callbacks. */
  kind: number;
}

if (file) {
  const us = () => Number(process.hrtime.bigint() / 1000n);
  const cpu = () => {
    const u = process.threadCpuUsage();
    return (u.user + u.system) / 1000;
  };
  // performance.now() ms → the monotonic µs clock.
  const offset = us() - performance.now() * 1000;
  const late: Late[] = [];
  const gc: GcPause[] = [];
  let last = performance.now();
  let lastCpu = cpu();
  setInterval(() => {
    const now = performance.now();
    const c = cpu();
    const lateMs = now - last - step;
    if (lateMs > over) late.push({ at: Math.round(offset + last * 1000), lateMs, cpuMs: c - lastCpu });
    last = now;
    lastCpu = c;
  }, step).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration <= 1) continue;
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
      gc.push({ at: Math.round(offset + e.startTime * 1000), ms: e.duration, kind });
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('exit', () => writeFileSync(file, JSON.stringify({ late, gc })));
}
