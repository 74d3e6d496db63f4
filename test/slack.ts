// How much longer anything bound to wall time may take in `npm test`'s lanes: TEST_TIME_SLACK, set to 3 by test/run.ts,
// where seven vitest processes and nine WordPress sites share two cores at load 12–18. Alone (`npx vitest run`, the
// `[alone]` phase) it is 1 and every bound is as written.

/** The lanes' factor (1 unless TEST_TIME_SLACK says otherwise). */
const SLACK = Number(process.env.TEST_TIME_SLACK ?? 1);

/**
 * A hang guard of `ms` (a test's or hook's timeout, a wait's limit), × the lanes' slack: it says how long a stuck test
 * may hold the run, not how fast the code is, so it grows with the load. Claims of speed are benchmarks (docs/benchmarks.md).
 */
export const guard = (ms: number): number => ms * SLACK;

/**
 * The WordPress deadline (`UPSTREAM_TIMEOUT_MS`, 10 s by default) of a gateway a test starts, × the lanes' slack. A
 * request's WordPress calls share it, queue included; in the lanes, where one site's PHP call takes ~0.5 s alone and
 * 16× that at load 12–18, a matrix cell's call queued behind six callers' answered 504 past 10 s (CI of 2026-12-01).
 * Tests of the deadline itself set their own.
 */
export const upstreamDeadlineMs = guard(10_000);
