// Global setup of the projects that use the shared Redis: installed when missing, started when stopped.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  execFileSync('bash', [fileURLToPath(new URL('./ensure-redis.sh', import.meta.url))], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 10 * 60_000,
  });
}
