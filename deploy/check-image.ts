// `npm run image:check`: deploy/Dockerfile, checked as far as this machine can.
// - With a Docker daemon (`docker info` answers): builds the gateway and demo targets, runs the demo image until its
//   HEALTHCHECK says healthy, stops it and expects exit code 0.
// - Without one: the Dockerfile's gateway stage run here, step by step. Its COPY sources go into a fresh directory,
//   its RUN line runs there, and its CMD starts the gateway on this package's Node 24 (the image's node:24). Then
//   its HEALTHCHECK command is run as written, and the result is checked: no npm `node` package, no mocks/, a start
//   without UPSTREAM_URL refused with the reason, SIGTERM answered with exit code 0.
// Prints one line per check and exits non-zero on the first failure.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dockerfile = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8');
const ok = (what: string) => console.log(`ok   ${what}`);
const fail = (what: string): never => {
  console.log(`FAIL ${what}`);
  process.exit(1);
};
const check = (cond: boolean, what: string) => (cond ? ok(what) : fail(what));

/** The instructions of one stage (`FROM … AS name` up to the next FROM), continuation lines joined. */
function stage(name: string): Array<[string, string]> {
  const lines = dockerfile.replace(/\\\n\s*/g, '').split('\n');
  const out: Array<[string, string]> = [];
  let inside = false;
  for (const line of lines) {
    const m = /^([A-Z]+)\s+(.*)$/.exec(line.trim());
    if (!m) continue;
    if (m[1] === 'FROM') inside = new RegExp(`\\bAS\\s+${name}$`, 'i').test(m[2]!);
    else if (inside) out.push([m[1]!, m[2]!]);
  }
  return out;
}

const dockerWorks = (() => {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

async function withDocker(): Promise<void> {
  const build = (target: string, tag: string) =>
    execFileSync('docker', ['build', '-f', 'deploy/Dockerfile', '--target', target, '-t', tag, '.'], {
      cwd: root,
      stdio: 'inherit',
    });
  build('gateway', 'calendar-gateway:check');
  ok('docker build --target gateway');
  build('demo', 'calendar-gateway:check-demo');
  ok('docker build --target demo');
  const id = execFileSync('docker', ['run', '-d', 'calendar-gateway:check-demo'], {
    encoding: 'utf8',
  }).trim();
  try {
    let health = '';
    for (let i = 0; i < 120 && health !== 'healthy'; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      health = execFileSync('docker', ['inspect', '-f', '{{.State.Health.Status}}', id], {
        encoding: 'utf8',
      }).trim();
    }
    check(health === 'healthy', `the demo image's HEALTHCHECK says healthy (${health})`);
    execFileSync('docker', ['stop', id], { stdio: 'ignore' });
    const code = execFileSync('docker', ['inspect', '-f', '{{.State.ExitCode}}', id], {
      encoding: 'utf8',
    }).trim();
    check(code === '0', `docker stop: the gateway exits 0 (${code})`);
  } finally {
    execFileSync('docker', ['rm', '-f', id], { stdio: 'ignore' });
  }
}

async function withoutDocker(): Promise<void> {
  console.log(
    'no Docker daemon here: running the Dockerfile gateway stage step by step instead of building it',
  );
  const steps = [...stage('base'), ...stage('gateway')];
  const dir = mkdtempSync(join(tmpdir(), 'cg-image-'));
  const node24 = join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin', 'node');
  // The image's `node` is Node 24; npm's cache is the directory's own (the RUN line cleans it).
  const env: Record<string, string | undefined> = {
    ...process.env,
    PATH: `${dirname(node24)}:${process.env.PATH}`,
    npm_config_cache: join(dir, '.npm-cache'),
  };
  let cmd: string[] = [];
  let healthcheck: string[] = [];
  try {
    for (const [op, args] of steps) {
      if (op === 'COPY' && /--from=/.test(args)) {
        // From another stage (the element's bundle): this checkout's own build of it, which `npm install` made.
        const [from, target] = args
          .split(/\s+/)
          .filter((p) => !p.startsWith('--'))
          .map((p) => p.replace(/^\/app\//, ''));
        check(existsSync(join(root, from!)), `COPY --from: ${from} is built here`);
        cpSync(join(root, from!), join(dir, target!), { recursive: true });
      } else if (op === 'COPY') {
        const parts = args.split(/\s+/).filter((p) => !p.startsWith('--'));
        const target = parts.pop()!;
        for (const src of parts)
          cpSync(join(root, src), join(dir, target.endsWith('/') ? src : target), { recursive: true });
      } else if (op === 'RUN' && args.startsWith('apt-get')) {
        // The image's system packages (jemalloc): this machine's own are used, not installed here.
        console.log(`skip RUN ${args.slice(0, 60)}… (system packages of the image)`);
      } else if (op === 'RUN') {
        execFileSync('bash', ['-c', args], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
        ok(`RUN ${args}`);
      } else if (op === 'ENV') {
        for (const m of args.matchAll(/(\w+)=(\S+)/g)) env[m[1]!] = m[2]!;
      } else if (op === 'CMD') cmd = JSON.parse(args) as string[];
      else if (op === 'HEALTHCHECK')
        healthcheck = JSON.parse(args.slice(args.indexOf('CMD ') + 4)) as string[];
    }
    check(
      !existsSync(join(dir, 'node_modules/node')),
      'the npm `node` package is not installed (the image has Node 24)',
    );
    check(!existsSync(join(dir, 'mocks')), 'mocks/ is not in the gateway image');
    check(cmd.length > 0 && healthcheck.length > 0, `CMD ${cmd.join(' ')} and a HEALTHCHECK`);
    // Without UPSTREAM_URL: refused with the reason, not a missing module.
    let refused = '';
    try {
      execFileSync(cmd[0]!, cmd.slice(1), {
        cwd: dir,
        env: { ...env, PORT: '0', UPSTREAM_URL: '', UPSTREAM_AUTH: '' },
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 60_000,
      });
    } catch (err) {
      refused = String((err as { stderr: string }).stderr);
    }
    check(
      refused.includes('UPSTREAM_URL is not set'),
      'without UPSTREAM_URL it says UPSTREAM_URL is not set',
    );
    const upstream = process.env.UPSTREAM_URL;
    if (!upstream) {
      console.log(
        'skip start against WordPress: set UPSTREAM_URL and UPSTREAM_AUTH (e.g. from `npm run wordpress -- start`)',
      );
      return;
    }
    const port = String(20000 + Math.floor(Math.random() * 20000));
    const child = spawn(cmd[0]!, cmd.slice(1), {
      cwd: dir,
      env: {
        ...env,
        PORT: port,
        HOST: '127.0.0.1',
        UPSTREAM_URL: upstream,
        UPSTREAM_AUTH: process.env.UPSTREAM_AUTH ?? '',
      },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    let healthy = false;
    for (let i = 0; i < 60 && !healthy; i++) {
      await new Promise((r) => setTimeout(r, 500));
      try {
        execFileSync(healthcheck[0]!, healthcheck.slice(1), { env: { ...env, PORT: port }, stdio: 'ignore' });
        healthy = true;
      } catch {
        // not yet
      }
    }
    check(healthy, 'the HEALTHCHECK command succeeds against the started gateway');
    child.kill('SIGTERM');
    check((await exited) === 0, 'SIGTERM: the gateway exits 0');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await (dockerWorks ? withDocker() : withoutDocker());
