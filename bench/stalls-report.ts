// `node bench/stalls-report.ts FILE [N] [PROFILE]`: the N (10) latest-firing gaps of a stall meter's file
// (bench/busy/stalls.ts, written by `BUSY_STALLS_FILE=FILE node --import ./bench/busy/stalls.ts <bench or gateway>`),
// each split into the wait for a core, the main thread's CPU, the page faults and the GC pauses in it; then the totals.
// With PROFILE (the same process's `--cpu-prof`), each gap also names the project's frame it ran under and the
// functions by self time in it.
import { readFileSync } from 'node:fs';
import { windowOf } from './busy/profile.ts';
import type { GcPause, Late, SlowRequest } from './busy/stalls.ts';
import { lateLine } from './busy/stalls.ts';

const [file, n = '10', profile] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/stalls-report.ts FILE [N] [PROFILE]');
const { late, gc, slow } = JSON.parse(readFileSync(file, 'utf8')) as {
  late: Late[];
  gc: GcPause[];
  slow: SlowRequest[];
};
const first = late.reduce((m, l) => Math.min(m, l.at), Number.POSITIVE_INFINITY);
for (const l of [...late].sort((a, b) => b.lateMs - a.lateMs).slice(0, Number(n))) {
  console.log(`+${((l.at - first) / 1e6).toFixed(2)} s: ${lateLine(l, gc)}`);
  if (!profile) continue;
  // The gap: from the timer's previous firing to this late one (its lateness and one step of 5 ms).
  const x = windowOf(profile, l.at, l.at + (l.lateMs + 5) * 1000);
  console.log(`    under ${x.own}: ${x.self.slice(0, 5).join('; ')}`);
}
const faults = late.reduce((s, l) => s + l.faults, 0);
console.log(
  `${late.length} late firings (${faults} page faults in them), ${gc.length} GC pauses over 1 ms, ${slow.length} requests over the slow bound`,
);
