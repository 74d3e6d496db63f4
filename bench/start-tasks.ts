// What a gateway's start ran in its main-thread tasks over BENCH_TASKS_OVER_MS (5) of CPU, in the order they ran,
// each named from the CPU profile. After a start probe with the task meter and a profile on the gateway:
//   BENCH_START_RUNS=1 BUSY_TASKS_FILE="$TMPDIR/start-tasks.json" BENCH_START_NODE_OPTIONS="--cpu-prof \
//     --cpu-prof-dir=$TMPDIR/start-prof --cpu-prof-interval 200 --import ./bench/busy/tasks.ts" npm run bench:start
//   node bench/start-tasks.ts "$TMPDIR/start-tasks.json" "$TMPDIR"/start-prof/*.cpuprofile
// Async hooks make promises dearer: the CPU times are upper bounds.
import { readFileSync } from 'node:fs';
import { windowOf } from './busy/profile.ts';
import type { MeasuredTask } from './busy/tasks.ts';

const [tasksFile, profile] = process.argv.slice(2);
if (!tasksFile || !profile) throw new Error('usage: node bench/start-tasks.ts TASKS_FILE PROFILE');
const over = Number(process.env.BENCH_TASKS_OVER_MS ?? 5);
const read = JSON.parse(readFileSync(tasksFile, 'utf8')) as { tasks?: MeasuredTask[] } | MeasuredTask[];
const tasks = (Array.isArray(read) ? read : (read.tasks ?? [])).sort((a, b) => a.at - b.at);
const first = tasks[0]?.at ?? 0;
for (const t of tasks.filter((x) => x.cpuMs > over)) {
  const x = windowOf(profile, t.at, t.at + t.wallMs * 1000);
  console.log(
    `+${((t.at - first) / 1e6).toFixed(2)} s ${t.cpuMs.toFixed(1)} ms CPU (${t.wallMs.toFixed(1)} wall, ${t.by}) under ${x.own}: ${x.self.slice(0, 5).join('; ')}`,
  );
}
