// Long main-thread tasks in a V8 CPU profile (`node --cpu-prof`), inside a window of the monotonic clock.
// A task is a run of samples that are not `(idle)`: the event loop was busy from its first sample to its last. For each
// task over a threshold it names the functions that took its time (self time), and the gateway's own frames they ran
// under, so the note can say what the task did.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Node {
  id: number;
  callFrame: Frame;
  parent?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface LongTask {
  /** µs of the monotonic clock (process.hrtime) at its first sample. */
  at: number;
  ms: number;
  /** Functions by self time in the task, longest first: `name (file:line) ms`. */
  self: string[];
  /** The innermost frame of the project's own code (src/, node_modules excluded) under which most samples ran. */
  own: string;
}

const root = new URL('../../', import.meta.url).pathname;
const where = (f: Frame): string => {
  const file = f.url.startsWith('file://') ? relative(root, f.url.slice(7)) : f.url || '(native)';
  return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
};
const isOwn = (f: Frame): boolean => f.url.includes('/src/') && !f.url.includes('node_modules');

interface Loaded {
  /** The project's innermost and outermost frames each sample ran under (or '(outside src/)'). */
  ownOf: (node: number) => { inner: string; outer: string };
  startTime: number;
  samples: number[];
  timeDeltas: number[];
  idle: Set<number>;
  /** Names what a run of samples did: its functions by self time, and the project's frame most ran under. */
  describe: (samples: Array<{ node: number; us: number }>) => { self: string[]; own: string };
}

const loaded = new Map<string, Loaded>();

/** The profile in `file`, parsed once. */
function loadProfile(file: string): Loaded {
  const have = loaded.get(file);
  if (have) return have;
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  for (const n of p.nodes) for (const c of n.children ?? []) byId.get(c)!.parent = n.id;
  const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  const describe = (samples: Array<{ node: number; us: number }>) => {
    const self = new Map<string, number>();
    const own = new Map<string, number>();
    for (const s of samples) {
      const n = byId.get(s.node)!;
      self.set(where(n.callFrame), (self.get(where(n.callFrame)) ?? 0) + s.us);
      let up: Node | undefined = n;
      while (up && !isOwn(up.callFrame)) up = up.parent === undefined ? undefined : byId.get(up.parent);
      const o = up ? where(up.callFrame) : '(outside src/)';
      own.set(o, (own.get(o) ?? 0) + s.us);
    }
    const top = (m: Map<string, number>, k: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k);
    return {
      self: top(self, 4).map(([f, v]) => `${f} ${(v / 1000).toFixed(1)} ms`),
      own: top(own, 1)[0]?.[0] ?? '',
    };
  };
  const ownOf = (id: number) => {
    let inner: string | undefined;
    let outer = '(outside src/)';
    for (let up = byId.get(id); up; up = up.parent === undefined ? undefined : byId.get(up.parent))
      if (isOwn(up.callFrame)) {
        inner ??= where(up.callFrame);
        outer = where(up.callFrame);
      }
    return { inner: inner ?? outer, outer };
  };
  const out = { ownOf, startTime: p.startTime, samples: p.samples, timeDeltas: p.timeDeltas, idle, describe };
  loaded.set(file, out);
  return out;
}

/** Tasks of `file` longer than `overMs` (wall clock), between `from` and `to` (µs, monotonic clock). */
export function longTasks(file: string, from: number, to: number, overMs = 5): LongTask[] {
  const p = loadProfile(file);
  const tasks: LongTask[] = [];
  let t = p.startTime;
  let run: Array<{ node: number; us: number }> = [];
  let runAt = 0;
  const close = () => {
    const us = run.reduce((a, s) => a + s.us, 0);
    if (run.length && us / 1000 > overMs && runAt >= from && runAt <= to)
      tasks.push({ at: runAt, ms: us / 1000, ...p.describe(run) });
    run = [];
  };
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    const us = p.timeDeltas[i + 1] ?? 0;
    if (p.idle.has(p.samples[i]!)) close();
    else {
      if (!run.length) runAt = t;
      run.push({ node: p.samples[i]!, us });
    }
  }
  close();
  return tasks;
}

/** Self time of every function over the given tasks, longest first: what the long tasks spent their time on. */
export function topSelf(tasks: LongTask[], k = 12): string[] {
  const sum = new Map<string, number>();
  for (const task of tasks)
    for (const line of task.self) {
      const m = /^(.*) ([\d.]+) ms$/.exec(line);
      if (m) sum.set(m[1]!, (sum.get(m[1]!) ?? 0) + Number(m[2]));
    }
  return [...sum]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([f, ms]) => `${ms.toFixed(1).padStart(7)} ms  ${f}`);
}

/**
 * What the profile's samples between `from` and `to` (µs, monotonic clock) ran: the project's own frame most of them
 * ran under, and the functions by self time. For a task measured in CPU time (bench/busy/tasks.ts), its name.
 */
export function windowOf(file: string, from: number, to: number): { own: string; self: string[] } {
  const p = loadProfile(file);
  const run: Array<{ node: number; us: number }> = [];
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if (t < from || t > to || p.idle.has(p.samples[i]!)) continue;
    run.push({ node: p.samples[i]!, us: p.timeDeltas[i + 1] ?? 0 });
  }
  const d = p.describe(run);
  return { own: d.own, self: d.self };
}

/** The CPU profile `--cpu-prof-dir=dir` wrote (one process a dir), or undefined. */
export function profileIn(dir: string): string | undefined {
  const name = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  return name && join(dir, name);
}

/**
 * The main thread's CPU over the windows (ms a second of them), by the project's frame it ran under: the innermost (what
 * did the work) and the outermost (what it was done for), the top `k` of each. Idle samples are left out. A sample's
 * time is capped at twice the profile's usual interval: a thread that waited for a core is sampled once when it runs
 * again, with the whole wait as its time, and on a shared core that would count the waits as the gateway's work.
 */
export function spentBy(
  file: string,
  windows: ReadonlyArray<{ from: number; to: number }>,
  k = 8,
): { perSecond: number; inner: string[]; outer: string[] } {
  const p = loadProfile(file);
  const inner = new Map<string, number>();
  const outer = new Map<string, number>();
  let busy = 0;
  const deltas = p.timeDeltas.filter((d) => d > 0).sort((a, b) => a - b);
  const cap = 2 * (deltas[deltas.length >> 1] ?? 1000);
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if (p.idle.has(p.samples[i]!) || !windows.some((w) => t >= w.from && t <= w.to)) continue;
    const us = Math.min(cap, p.timeDeltas[i + 1] ?? 0);
    const o = p.ownOf(p.samples[i]!);
    inner.set(o.inner, (inner.get(o.inner) ?? 0) + us);
    outer.set(o.outer, (outer.get(o.outer) ?? 0) + us);
    busy += us;
  }
  const seconds = windows.reduce((a, w) => a + (w.to - w.from), 0) / 1e6 || 1;
  const top = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([f, us]) => `${(us / 1000 / seconds).toFixed(1).padStart(6)} ms/s  ${f}`);
  return { perSecond: busy / 1000 / seconds, inner: top(inner), outer: top(outer) };
}
