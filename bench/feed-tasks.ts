// The gateway's main-thread tasks over 5 ms of CPU during each request of `npm run bench:feed`, named from its CPU
// profile. Run the feed bench with the task meter and a profile, then this:
//   BUSY_TASKS_FILE="$TMPDIR/feed-tasks.json" node --cpu-prof --cpu-prof-dir="$TMPDIR/feed-prof" --cpu-prof-interval 200 \
//     --import ./bench/busy/tasks.ts bench/feed.ts
//   node bench/feed-tasks.ts "$TMPDIR/feed-tasks.json" "$TMPDIR"/feed-prof/*.cpuprofile
// (bench/feed.ts writes each request's window beside the tasks file). Async hooks make promises dearer: upper bounds.
import { readFileSync } from 'node:fs';
import { windowOf } from './busy/profile.ts';
import type { MeasuredTask } from './busy/tasks.ts';

const [tasksFile, profile] = process.argv.slice(2);
if (!tasksFile || !profile) throw new Error('usage: node bench/feed-tasks.ts TASKS_FILE PROFILE');
const read = JSON.parse(readFileSync(tasksFile, 'utf8')) as { tasks?: MeasuredTask[] } | MeasuredTask[];
const tasks = Array.isArray(read) ? read : (read.tasks ?? []);
const windows = JSON.parse(readFileSync(`${tasksFile}.windows.json`, 'utf8')) as Array<{
  url: string;
  from: number;
  to: number;
}>;
for (const w of windows) {
  const inside = tasks
    .filter((t) => t.at >= w.from && t.at <= w.to && t.cpuMs > 5)
    .sort((a, b) => b.cpuMs - a.cpuMs);
  const longest = inside[0]?.cpuMs ?? 0;
  console.log(
    `${w.url.replace(/^.*\/v1/, '')}: ${inside.length} tasks over 5 ms CPU, longest ${longest.toFixed(1)} ms`,
  );
  for (const t of inside.slice(0, 5)) {
    const x = windowOf(profile, t.at, t.at + t.wallMs * 1000);
    console.log(
      `  ${t.cpuMs.toFixed(1)} ms CPU (${t.wallMs.toFixed(1)} wall) under ${x.own}: ${x.self.slice(0, 4).join('; ')}`,
    );
  }
}
