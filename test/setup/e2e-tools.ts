// Global setup of the end-to-end project: Debian's chromium (browser tests), nginx (deployment test), and Varnish with
// its xkey module (deploy/varnish.vcl's test).
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
}
