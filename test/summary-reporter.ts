// Ends the run with the plain line `Tests: N passed, N failed, N skipped`, which CI reads in any language, after a
// `Failed: <file> > <test>: <first line of the error>` line for each failure (test/run.ts repeats those at the very end,
// where a CI log cut to its tail still shows them).
import type { Reporter, TestModule } from 'vitest/node';

/** The first line of an error's message, short. */
function firstLine(message: string | undefined): string {
  const line = (message ?? '').split('\n').find((l) => l.trim()) ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const failures: string[] = [];
    for (const m of testModules) {
      for (const t of m.children.allTests()) {
        const result = t.result();
        if (result.state === 'passed') counts.passed++;
        else if (result.state === 'failed') {
          counts.failed++;
          failures.push(`${m.moduleId} > ${t.fullName}: ${firstLine(result.errors?.[0]?.message)}`);
        } else counts.skipped++;
      }
      // A file that failed outside its tests (an import, a beforeAll: its tests then count as skipped) is one failure.
      if (m.state() === 'failed' && ![...m.children.allTests()].some((t) => t.result().state === 'failed')) {
        counts.failed++;
        failures.push(`${m.moduleId}: ${firstLine(m.errors()[0]?.message)}`);
      }
    }
    const root = `${process.cwd()}/`;
    const lines = failures.map((f) => `Failed: ${f.startsWith(root) ? f.slice(root.length) : f}\n`).join('');
    process.stdout.write(
      `\n${lines}Tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
