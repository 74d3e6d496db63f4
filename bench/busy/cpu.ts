// Where a core's time went over a phase of bench:busy: each process's threads' CPU (Linux's schedstat, ns, exact)
// and each core's busy share (/proc/stat, 10 ms ticks). Pinned, the gateway, its Redis and the load generator share
// core 0: when that core is near full, a read waits for it whatever the gateway's own tasks are, and these figures say
// who filled it. A virtual machine's core is also busy while its host runs another guest on the real core (steal, the
// VM's eighth /proc/stat column): that share of each core is printed apart, as the host's.
import { readdirSync, readFileSync } from 'node:fs';

export interface CpuMark {
  /** CPU ns by `label` and `label threads` (a process's main thread apart from its other threads). */
  ns: Map<string, number>;
  /** Per core: [busy ticks, all ticks, stolen ticks (counted in busy)]. */
  cores: Array<[number, number, number]>;
  at: bigint;
}

const read = (path: string): string => {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return '';
  }
};

/** The CPU so far of every thread of these processes (by label), and each core's ticks. */
export function cpuMark(procs: Record<string, ReadonlyArray<number | undefined>>): CpuMark {
  const ns = new Map<string, number>();
  for (const [label, pids] of Object.entries(procs))
    for (const pid of pids) {
      if (!pid) continue;
      let tids: string[] = [];
      try {
        tids = readdirSync(`/proc/${pid}/task`);
      } catch {
        continue;
      }
      for (const tid of tids) {
        const ran = Number(read(`/proc/${pid}/task/${tid}/schedstat`).split(' ')[0]) || 0;
        const key = Number(tid) === pid ? label : `${label} threads`;
        ns.set(key, (ns.get(key) ?? 0) + ran);
      }
    }
  return { ns, cores: coreTicks(), at: process.hrtime.bigint() };
}

/** Each core's ticks so far (/proc/stat): [busy, all, stolen (counted in busy)]. */
export function coreTicks(): Array<[busy: number, all: number, stolen: number]> {
  const cores: Array<[number, number, number]> = [];
  for (const line of read('/proc/stat').split('\n')) {
    const m = /^cpu(\d+) (.*)$/.exec(line);
    if (!m) continue;
    const t = m[2]!.trim().split(/\s+/).map(Number);
    const all = t.slice(0, 8).reduce((a, b) => a + b, 0);
    // idle and iowait are the core's free time; steal (the eighth) is the host's.
    cores[Number(m[1])] = [all - t[3]! - t[4]!, all, t[7] ?? 0];
  }
  return cores;
}

/** Each core's busy share and each process's share of one core between two marks, as one line. */
export function cpuLine(a: CpuMark, b: CpuMark): string {
  const wallNs = Number(b.at - a.at);
  const cores = b.cores
    .map(([busy, all, stolen], i) => {
      const [busy0, all0, stolen0] = a.cores[i] ?? [0, 0, 0];
      const share = (n: number) => ((n / Math.max(1, all - all0)) * 100).toFixed(0);
      return `core ${i} ${share(busy - busy0)} % (the host's ${share(stolen - stolen0)} %)`;
    })
    .join(', ');
  const parts = [...b.ns.entries()]
    .map(([k, v]) => [k, ((v - (a.ns.get(k) ?? 0)) / wallNs) * 100] as const)
    // A process's other threads only where they did something; each process itself always.
    .filter(([k, p]) => p >= 0.5 || !k.endsWith(' threads'))
    .sort((x, y) => y[1] - x[1])
    .map(([k, p]) => `${k} ${p.toFixed(0)} %`)
    .join(', ');
  return `${cores}; of a core: ${parts}`;
}
