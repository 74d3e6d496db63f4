#!/usr/bin/env node
// The gateway's entry point for any Node ≥ 20 (systemd, pm2, npx): runs src/main.ts on a Node that strips types.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'main.ts');

if (process.features.typescript) {
  // This Node runs TypeScript itself (Node 24, or 22.18+): no second process.
  await import(main);
} else {
  // Node 20 (what Debian ships): hand over to the Node 24 of the npm `node` package this package depends on.
  const require = createRequire(import.meta.url);
  const node24 = join(dirname(require.resolve('node/package.json')), 'bin', 'node');
  if (!existsSync(node24)) {
    process.stderr.write('calendar-gateway: Node 24 is missing; run `npm install` in the package first.\n');
    process.exit(1);
  }
  const child = spawn(node24, [main, ...process.argv.slice(2)], { stdio: 'inherit' });
  // A process manager's SIGTERM (or a terminal's SIGINT) reaches the gateway, which shuts down on its own.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}
