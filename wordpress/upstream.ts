// Test-suite helper: starts (or reuses) the local WordPress through wp.sh and returns how to reach it.
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const script = resolve(here, 'wp.sh');

export interface WordPressUpstream {
  /** `http://127.0.0.1:<port>/wp-json` */
  url: string;
  /** `admin:<application password>` (the tests' administrator; wp.sh prints the editor's for the gateway). */
  auth: string;
  /** The application password shared by admin, editor, author, contributor and subscriber. */
  usersPassword: string;
  /** The wp-login.php password shared by the same five users. */
  loginPassword: string;
  /** `http://127.0.0.1:<port>/wp-admin/` */
  adminUrl: string;
}

/** wp.sh's `KEY=value` stdout lines. */
export interface StartOutput {
  url: string;
  /** UPSTREAM_AUTH: the editor's `user:application password`, for the gateway. */
  auth: string;
  adminUrl: string;
  loginPassword: string;
  /** With `--gateway`: where notifications go, and the secret the gateway needs as WEBHOOK_SECRET. */
  webhook?: { url: string; secret: string };
}

/** Parses wp.sh's `KEY=value` stdout lines. */
export function parseStartOutput(stdout: string): StartOutput {
  const lines = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) lines.set(m[1]!, m[2]!);
  }
  const url = lines.get('UPSTREAM_URL');
  const auth = lines.get('UPSTREAM_AUTH');
  const adminUrl = lines.get('WP_ADMIN_URL');
  const loginPassword = lines.get('WP_LOGIN_PASSWORD');
  if (!url || !auth || !adminUrl || !loginPassword) {
    throw new Error(
      `wp.sh start printed no UPSTREAM_URL/UPSTREAM_AUTH/WP_ADMIN_URL/WP_LOGIN_PASSWORD:\n${stdout}`,
    );
  }
  const hookUrl = lines.get('WEBHOOK_URL');
  const secret = lines.get('WEBHOOK_SECRET');
  return {
    url,
    auth,
    adminUrl,
    loginPassword,
    ...(hookUrl && secret ? { webhook: { url: hookUrl, secret } } : {}),
  };
}

/** Starts WordPress for `mapping` in `stateDir` on `port` (idempotent: a running healthy site is reused). */
export async function ensureWordPress(opts: {
  mapping: string;
  stateDir: string;
  port: number;
  /** false: leave the site empty (WP_SKIP_SEED=1), for tests that seed their own data. Default true. */
  seed?: boolean;
}): Promise<WordPressUpstream> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WP_STATE_DIR: resolve(opts.stateDir),
    WP_PORT: String(opts.port),
  };
  if (opts.seed === false) env.WP_SKIP_SEED = '1';
  else delete env.WP_SKIP_SEED;
  try {
    const { stdout } = await run(
      'bash',
      [script, 'start', '--port', String(opts.port), '--mapping', resolve(opts.mapping)],
      { env, maxBuffer: 16 * 1024 * 1024, timeout: 15 * 60_000 },
    );
    const { url, auth, adminUrl, loginPassword } = parseStartOutput(stdout);
    const usersPassword = auth.slice(auth.indexOf(':') + 1);
    return { url, auth: `admin:${usersPassword}`, usersPassword, loginPassword, adminUrl };
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`starting WordPress failed: ${e.message}\n${e.stderr ?? ''}`);
  }
}

/** Stops the WordPress of `stateDir` (php -S workers, then MariaDB); fine when nothing runs. */
export async function stopWordPress(stateDir: string): Promise<void> {
  await run('bash', [script, 'stop'], {
    env: { ...process.env, WP_STATE_DIR: resolve(stateDir) },
    timeout: 120_000,
  });
}
