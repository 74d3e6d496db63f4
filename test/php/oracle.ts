// PHP itself as a test oracle: php-cli (installed like WordPress's other packages) answering many cases at once.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./strtotime.php', import.meta.url));
const APT_INSTALL = fileURLToPath(new URL('../setup/apt-install.sh', import.meta.url));

/** Installs php-cli where it is missing (as root, as the WordPress setup does); a machine without root is told how. */
export function ensurePhp(): void {
  execFileSync('bash', [APT_INSTALL, 'php', 'php-cli'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    timeout: 600_000,
  });
}

/** PHP's `strtotime(text, now)` with `zone` as its default time zone, for many cases from one php process. */
export function phpStrtotime(
  cases: ReadonlyArray<readonly [text: string, now: number, zone: string]>,
): Array<number | false> {
  const out = execFileSync('php', [SCRIPT], { input: JSON.stringify(cases), maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.toString());
}
