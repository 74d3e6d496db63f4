// Preloaded into a benchmarked gateway (`node --import ./bench/busy/tasks.ts`): the main thread's tasks measured in
// its own CPU time, which a loaded machine does not stretch (a wall-clock gap also counts the time the thread waited
// for a core). A task is a callback the event loop ran (a socket's data, a timer, an immediate, an HTTP parser's
// callback) with the microtasks and nextTicks that ran after it, before the loop took the next callback: as long as
// it runs, no other request is served. On exit the tasks over BUSY_TASKS_OVER_MS (1) of CPU are written to
// BUSY_TASKS_FILE as JSON: start (µs of the monotonic clock, the CPU profile's), wall and CPU ms, and what started it.
// Bench-only: async_hooks make every promise dearer, so CPU times read here are upper bounds.
import { createHook, executionAsyncResource } from 'node:async_hooks';
import { writeFileSync } from 'node:fs';
import { threadCpu } from '../run-delay.ts';

const file = process.env.BUSY_TASKS_FILE;
const over = Number(process.env.BUSY_TASKS_OVER_MS ?? 1) * 1000;

export interface MeasuredTask {
  at: number;
  wallMs: number;
  cpuMs: number;
  /** What started it: the resource's constructor name (Timeout, Immediate, HTTPParser, TCP…). */
  by: string;
}

if (file) {
  /** µs, as the bounds below. */
  const cpu = () => threadCpu() * 1000;
  const us = () => Number(process.hrtime.bigint() / 1000n);
  const kept: MeasuredTask[] = [];
  /** Counts of every task by CPU: ≤1, ≤2, ≤5, ≤10, ≤20, >20 ms. */
  const histogram = [0, 0, 0, 0, 0, 0];
  const bounds = [1000, 2000, 5000, 10_000, 20_000];
  let depth = 0;
  let open: { at: number; cpu0: number; by: string } | undefined;
  let lastCpu = 0;
  let lastWall = 0;
  const close = () => {
    if (!open) return;
    const c = lastCpu - open.cpu0;
    let b = 0;
    while (b < bounds.length && c > bounds[b]!) b++;
    histogram[b]!++;
    if (c > over)
      kept.push({ at: open.at, wallMs: (lastWall - open.at) / 1000, cpuMs: c / 1000, by: open.by });
    open = undefined;
  };
  createHook({
    before() {
      if (depth++ !== 0) return;
      const r = executionAsyncResource() as object | undefined;
      const name = r?.constructor?.name ?? '?';
      // A microtask or a nextTick continues the task before it; anything else the loop took is a new task.
      if (open && (r instanceof Promise || name === 'TickObject')) return;
      close();
      open = { at: us(), cpu0: cpu(), by: name };
    },
    after() {
      if (--depth !== 0) return;
      lastCpu = cpu();
      lastWall = us();
    },
  }).enable();
  process.on('exit', () => {
    close();
    writeFileSync(file, JSON.stringify({ histogram, tasks: kept }));
  });
}
