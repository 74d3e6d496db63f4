// Global setup of the end-to-end project: Debian's chromium for the browser tests (installed when missing).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  execFileSync(
    'bash',
    [fileURLToPath(new URL('./apt-install.sh', import.meta.url)), 'chromium', 'chromium'],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 10 * 60_000,
    },
  );
}
