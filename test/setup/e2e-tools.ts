// Global setup of the end-to-end project: Debian's chromium (browser tests), nginx and a compose CLI (deployment test),
// and Varnish with its xkey module (deploy/varnish.vcl's test).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const install = (command: string, ...pkgs: string[]) =>
  execFileSync('bash', [fileURLToPath(new URL('./apt-install.sh', import.meta.url)), command, ...pkgs], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 10 * 60_000,
  });

export default function setup(): void {
  install('chromium', 'chromium');
  // nginx lives in /usr/sbin, which a non-root PATH may lack; root installs it when missing.
  install('nginx', 'nginx-light');
  install('varnishd', 'varnish', 'varnish-modules');
  // `docker compose config` checks deploy/compose.yaml without a daemon: Docker's compose plugin where it is, else
  // Debian's docker-compose.
  if (!composeCommand()) install('docker-compose', 'docker-compose');
}

/** The compose CLI this machine has: `docker compose` (the plugin) or `docker-compose`, or undefined. */
export function composeCommand(): string[] | undefined {
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    try {
      execFileSync(command[0]!, [...command.slice(1), 'version'], { stdio: 'ignore' });
      return command;
    } catch {
      // not this one
    }
  }
  return undefined;
}
