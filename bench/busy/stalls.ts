// Preloaded into a benchmarked gateway (`node --import ./bench/busy/stalls.ts`): its loop's lag, and what a spike was.
// A timer every BUSY_STALLS_STEP_MS (5) notes each time it fires late by more than BUSY_STALLS_OVER_MS (5), with the
// main thread's CPU time over that gap; a PerformanceObserver notes every GC pause over 1 ms. On exit both go to
// BUSY_STALLS_FILE as JSON, their starts in µs of the monotonic clock (the CPU profile's). A block of the loop of T ms
// makes the timer late by T less up to one step. A late firing whose gap holds little CPU and no GC pause is the thread
// waiting for a core (the machine's), not the gateway's own work: each late firing also notes how long the thread was
// ready but waiting for a core in its gap (Linux's run delay, /proc/thread-self/schedstat), so the lateness splits into
// the machine's part and the loop's own. What is left of a gap once its CPU and its wait are taken out, the thread spent
// neither running nor waiting for a core: on a virtual machine, its core was running while the host gave the real core
// to another guest (steal: the guest counts that time to no task), or the thread slept in a blocking call. Requests the gateway took over BUSY_STALLS_SLOW_MS (50) to answer, from the
// start of their handling to their response's finish (node:diagnostics_channel), are noted with their URL.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, PerformanceObserver, performance } from 'node:perf_hooks';
import { runDelayMeter, threadCpu } from '../run-delay.ts';

const file = process.env.BUSY_STALLS_FILE;
const over = Number(process.env.BUSY_STALLS_OVER_MS ?? 5);
const step = Number(process.env.BUSY_STALLS_STEP_MS ?? 5);

export interface Late {
  at: number;
  lateMs: number;
  /** The main thread's CPU time during the gap (ms). */
  cpuMs: number;
  /**
   * How long the main thread was ready to run but waited for a core during the gap (ms; Linux's schedstat run delay):
   * the machine's part of the lateness. NaN where /proc/thread-self/schedstat cannot be read.
   */
  waitMs: number;
  /**
   * Page faults the process took during the gap that needed no disk (getrusage's minor faults): each maps a page the
   * process touches for the first time, which on a virtual machine whose free memory goes back to its host costs the
   * host's fault as well (about 10 µs a 4 KB page on the Firecracker VMs here, docs/benchmarks.md).
   */
  faults: number;
  /**
   * The rest of the gap (ms): its length less the main thread's CPU and its wait for a core, i.e. time the thread was
   * due to run yet neither ran nor waited. A virtual machine's steal (its host running another guest on the core) is
   * counted to no task and lands here; so would a blocking call. Absent in files written before 2026-12-03.
   */
  offMs?: number;
}
/** The GC kinds perf_hooks names (`constants.NODE_PERFORMANCE_GC_*`), as printed. */
export const GC_KINDS: ReadonlyArray<[kind: number, name: string]> = [
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental marking'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak callbacks'],
];

/** A request the gateway took over BUSY_STALLS_SLOW_MS (50) to answer, from its start to its response's finish. */
export interface SlowRequest {
  at: number;
  ms: number;
  method: string;
  url: string;
  status: number;
}

export interface GcPause {
  at: number;
  ms: number;
  /** perf_hooks' constants: 1 minor (scavenge), 4 major (mark-compact), 8 incremental marking, 16 weak callbacks. */
  kind: number;
}

/** The GC pauses that overlap late firing `l`'s gap (of the default 5 ms step). */
const pausesIn = (l: Late, gc: readonly GcPause[]): GcPause[] =>
  gc.filter((g) => g.at + g.ms * 1000 >= l.at && g.at <= l.at + (l.lateMs + 5) * 1000);

/** What of a late firing was the gateway's own: its lateness less its wait for a core and its time off any core. */
export const ownLateMs = (l: Late): number =>
  Math.max(0, l.lateMs - (Number.isNaN(l.waitMs) ? 0 : l.waitMs) - (l.offMs ?? 0));

/**
 * A late firing in words: how late, how much of it was a wait for a core or off any core, the CPU, the page faults
 * and the GC in it.
 */
export function lateLine(l: Late, gc: readonly GcPause[]): string {
  const pauses = pausesIn(l, gc);
  const off =
    l.offMs === undefined ? '' : `, off any core (neither running nor waiting) ${l.offMs.toFixed(1)} ms`;
  return `late ${l.lateMs.toFixed(1)} ms, waiting for a core ${l.waitMs.toFixed(1)} ms of it${off}, main-thread CPU in the gap ${l.cpuMs.toFixed(1)} ms, page faults ${l.faults} (${((l.faults * 4) / 1024).toFixed(1)} MB), GC in it ${pauses.length ? pauses.map((g) => `${g.ms.toFixed(1)} ms (${GC_KINDS.find(([k]) => k === g.kind)?.[1] ?? g.kind})`).join(', ') : 'none'}`;
}

if (file) {
  const us = () => Number(process.hrtime.bigint() / 1000n);
  // performance.now() ms → the monotonic µs clock.
  const offset = us() - performance.now() * 1000;
  const late: Late[] = [];
  const gc: GcPause[] = [];
  const slow: SlowRequest[] = [];
  const slowMs = Number(process.env.BUSY_STALLS_SLOW_MS ?? 50);
  const began = new WeakMap<IncomingMessage, number>();
  subscribe('http.server.request.start', (m) => {
    began.set((m as { request: IncomingMessage }).request, performance.now());
  });
  subscribe('http.server.response.finish', (m) => {
    const { request, response } = m as { request: IncomingMessage; response: ServerResponse };
    const from = began.get(request);
    if (from === undefined) return;
    const ms = performance.now() - from;
    if (ms > slowMs)
      slow.push({
        at: Math.round(offset + from * 1000),
        ms,
        method: request.method ?? '',
        url: request.url ?? '',
        status: response.statusCode,
      });
  });
  const waited = runDelayMeter();
  let last = performance.now();
  let lastCpu = threadCpu();
  let lastWait = waited();
  const faulted = () => process.resourceUsage().minorPageFault;
  let lastFaults = faulted();
  setInterval(() => {
    const now = performance.now();
    const c = threadCpu();
    const w = waited();
    const f = faulted();
    const lateMs = now - last - step;
    if (lateMs > over)
      late.push({
        at: Math.round(offset + last * 1000),
        lateMs,
        cpuMs: c - lastCpu,
        waitMs: w - lastWait,
        faults: f - lastFaults,
        offMs: Number.isNaN(w) ? undefined : Math.max(0, now - last - (c - lastCpu) - (w - lastWait)),
      });
    last = now;
    lastCpu = c;
    lastWait = w;
    lastFaults = f;
  }, step).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration <= 1) continue;
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
      gc.push({ at: Math.round(offset + e.startTime * 1000), ms: e.duration, kind });
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('exit', () => writeFileSync(file, JSON.stringify({ late, gc, slow })));
}
