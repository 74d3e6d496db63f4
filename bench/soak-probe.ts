// Preloaded into each soak instance (`node --import <this file>`), so any checkout of the gateway, today's main
// included, reports the same figures without code of its own: every SOAK_PROBE_MS (1000) it writes its full
// `process.memoryUsage()` (bytes) as one JSON object to SOAK_PROBE_FILE. Heap snapshots come from node's own
// `--heapsnapshot-signal`. Cheap: one small synchronous write a second on an unref'd timer. With SOAK_PROBE_GC=1 and
// node's `--expose-gc`, each sample is taken after a full collection (what is live, not what awaits collection).
import { renameSync, writeFileSync } from 'node:fs';

const file = process.env.SOAK_PROBE_FILE;
if (file) {
  // Written aside and renamed over, so the soak never reads a half-written file.
  const collect = process.env.SOAK_PROBE_GC === '1' ? (globalThis as { gc?: () => void }).gc : undefined;
  const write = () => {
    collect?.();
    writeFileSync(`${file}.tmp`, JSON.stringify({ t: Date.now(), ...process.memoryUsage() }));
    renameSync(`${file}.tmp`, file);
  };
  write();
  setInterval(write, Number(process.env.SOAK_PROBE_MS ?? 1000)).unref();
}
