// What the event loop's longest turns ran, from a CPU profile of the main thread (node:inspector's Profiler): for each
// turn (a window of the monotonic clock, µs), the functions by self time and the project's own frames (src/) by
// inclusive time. bench/index-jobs.ts uses it with BENCH_INDEX_PROFILE=1.
import { relative } from 'node:path';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const root = new URL('../', import.meta.url).pathname;
const where = (f: Frame): string => {
  const file = f.url.startsWith('file://') ? relative(root, f.url.slice(7)) : f.url || '(native)';
  return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
};

/** Lines describing the samples of `p` between `from` and `to` (µs): top self functions, top own frames inclusive. */
export function turnOf(p: CpuProfile, from: number, to: number, top = 6): string[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let t = p.startTime;
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i] ?? 0;
    if (t < from || t > to) continue;
    const us = p.timeDeltas[i + 1] ?? 0;
    total += us;
    const n = byId.get(p.samples[i]) as ProfileNode;
    const s = where(n.callFrame);
    self.set(s, (self.get(s) ?? 0) + us);
    const seen = new Set<string>();
    for (let up: number | undefined = n.id; up !== undefined; up = parent.get(up)) {
      const f = (byId.get(up) as ProfileNode).callFrame;
      if (!f.url.includes('/src/')) continue;
      const w = where(f);
      if (seen.has(w)) continue;
      seen.add(w);
      incl.set(w, (incl.get(w) ?? 0) + us);
    }
  }
  const list = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([f, us]) => `${(us / 1000).toFixed(1).padStart(6)} ms  ${f}`);
  return [`sampled ${(total / 1000).toFixed(1)} ms; self:`, ...list(self), 'inclusive, src/:', ...list(incl)];
}
