// The calling thread's clocks for the benches' stall meters: its CPU time, and how long it has waited for a core so
// far (ms): the run delay of Linux's schedstat
// (/proc/thread-self/schedstat, its second field, ns), read again in place from one open file. A stall of the event
// loop less the run delay over it is the loop's own block; the rest was the machine (other processes, or this one's
// own helper threads, taking the cores). NaN where the file cannot be read (not Linux, or schedstats off).
import { openSync, readSync } from 'node:fs';

export function runDelayMeter(): () => number {
  let fd: number | undefined;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return () => Number.NaN;
  }
  const buf = Buffer.alloc(96);
  return () => {
    const n = readSync(fd, buf, 0, buf.length, 0);
    return Number(buf.toString('latin1', 0, n).split(' ')[1]) / 1e6;
  };
}

/** The calling thread's CPU time so far (ms): what it ran, whatever else the machine ran meanwhile. */
export const threadCpu = (): number => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};
