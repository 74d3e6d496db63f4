// The reads of bench:busy's phases: RATE anonymous reads a second over a list of paths for SECONDS, every answer's
// time kept. Paced (bench/busy/paced.ts: each read sent when it falls due and timed from then) or, for comparison with
// the runs before 2026-12-02, autocannon's `overallRate`.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { Pool } from 'undici';
import { openPool, pacedReads } from './paced.ts';

export interface Phase {
  times: number[];
  non2xx: number;
  /** This process's own loop lag max over the phase: the reads are timed here, so a block of this loop is in them. */
  genLagMs: number;
  /** From the phase's first read to its last read's end (ms): above the phase's seconds, the rate was not held. */
  tookMs: number;
  /** Paced reads: when each read of `times` was due (ms into the phase). */
  dueMs?: number[];
}

/** Where a phase's reads over 50 ms fell due: the 100 ms slices that held most of them, as `from s: count`. */
export function slowAt(p: Phase): string {
  if (!p.dueMs) return '';
  const by = new Map<number, number>();
  p.times.forEach((t, i) => {
    if (t <= 50) return;
    const slice = Math.floor(p.dueMs![i]! / 100);
    by.set(slice, (by.get(slice) ?? 0) + 1);
  });
  return [...by.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([s, n]) => `${(s / 10).toFixed(1)} s: ${n}`)
    .join(', ');
}

export class Reads {
  /** Each server's connections of the paced reads, open from its first phase to its last (as a CDN keeps them). */
  readonly #pools = new Map<string, Pool>();

  /** `paced`, or `autocannon`. */
  readonly kind: string;
  readonly paths: readonly string[];
  readonly rate: number;
  readonly seconds: number;

  constructor(kind: string, paths: readonly string[], rate: number, seconds: number) {
    this.kind = kind;
    this.paths = paths;
    this.rate = rate;
    this.seconds = seconds;
  }

  /** One phase of reads of the server at `origin`. */
  async phase(origin: string): Promise<Phase> {
    if (this.kind !== 'paced') return this.#bursts(origin);
    let pool = this.#pools.get(origin);
    if (!pool) {
      pool = await openPool(origin, 50, this.paths[0]!);
      this.#pools.set(origin, pool);
    }
    const p = await pacedReads(pool, this.paths, this.rate, this.seconds);
    return {
      times: p.times,
      non2xx: p.non2xx + p.failed,
      genLagMs: p.genLagMs,
      tookMs: p.tookMs,
      dueMs: p.dueMs,
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((p) => p.close()));
    this.#pools.clear();
  }

  /** autocannon's `overallRate`: each second, each of 50 connections sends its share back to back, then idles. */
  #bursts(url: string): Promise<Phase> {
    const times: number[] = [];
    let non2xx = 0;
    const lag = monitorEventLoopDelay({ resolution: 1 });
    lag.enable();
    const done = (): Phase => {
      lag.disable();
      return { times, non2xx, genLagMs: lag.max / 1e6, tookMs: this.seconds * 1000 };
    };
    return new Promise((resolve, reject) => {
      const inst = autocannon(
        {
          url,
          connections: 50,
          overallRate: this.rate,
          duration: this.seconds,
          requests: this.paths.map((path) => ({ path })),
        },
        (err) => (err ? reject(err) : resolve(done())),
      );
      inst.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
        times.push(ms);
        if (status < 200 || status >= 300) non2xx++;
      });
    });
  }
}
