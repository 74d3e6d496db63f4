// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    idReplacement?: boolean;
    /** Requests a second over all connections (coordinated omission corrected in its own histograms). */
    overallRate?: number;
    /** Paths taken in turn by each connection; `setupRequest` makes each request's own (it runs once per request). */
    requests?: Array<{ path?: string; setupRequest?: (req: RequestData) => RequestData }>;
  }
  interface RequestData {
    path?: string;
    method?: string;
    headers?: Record<string, string>;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
  }
  export default function autocannon(opts: Options): Promise<Result>;
  /** With a callback: the running instance, whose `response` events carry each answer's status and time (ms). */
  export default function autocannon(
    opts: Options,
    done: (err: Error | null, result: Result) => void,
  ): import('node:events').EventEmitter & { stop(): void };
}
