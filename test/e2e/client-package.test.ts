// The typed client as a front-end team gets it: `npm run client:pack`'s tarball, installed into an empty app by the
// system's npm (Node 20 on CI), the README's client block compiled by plain `tsc --module nodenext` and run on the
// system's Node and on Node 24, and the same block through a bundler (vite), against a demo gateway; and the budget
// (tarball ≤ 100 KB, installed ≤ 5 MB with its dependency).
import { execFile } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packClient } from '../../src/client/pack.ts';
import { guard } from '../slack.ts';
import { type Server, startDemo } from './demo.ts';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const TARBALL_MAX = 100 * 1024;
const INSTALLED_MAX = 5 * 1024 * 1024;

/** The machine's PATH without node_modules/.bin (where the project's Node 24 comes first under `npm test`). */
const systemPath = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => dir !== '' && !dir.includes('node_modules'))
  .join(delimiter);

/** A command as the system's PATH finds it. */
function systemCommand(name: string): string {
  for (const dir of systemPath.split(delimiter)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {}
  }
  throw new Error(`${name} is not on the system's PATH (${systemPath})`);
}

/** The environment of a front-end developer's shell: the system's Node, and none of the running npm's settings. */
const userEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
  PATH: systemPath,
});

/** The README's client example: the first `ts` block under "From TypeScript". */
function readmeClientBlock(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## From TypeScript'));
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (!block?.includes("from '@calendar-gateway/client'")) throw new Error('no client block in the README');
  return block;
}

/** Bytes of the files under a directory (symbolic links not followed). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

let gw: Server;
let app: string;
let tarball: string;
let node: string;
let expected: RegExp;

beforeAll(async () => {
  node = systemCommand('node');
  gw = await startDemo();
  tarball = packClient().path;
  app = mkdtempSync(join(tmpdir(), 'client-app-'));
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'client-app', private: true, type: 'module' }),
  );
  // --prefer-offline: openapi-fetch comes from npm's cache, filled by the project's own install, when it is there.
  await run(systemCommand('npm'), ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: app,
    env: userEnv(),
  });
  writeFileSync(join(app, 'index.ts'), readmeClientBlock().replaceAll('http://localhost:3000', gw.url));
  // What the block prints, from the gateway itself.
  const body = (await (
    await fetch(`${gw.url}/wp-json/calendar/events/v1/events?categories=jazz&per_page=5`)
  ).json()) as { total: number; events: Array<{ title: string }> };
  expect(body.total).toBeGreaterThan(0);
  const title = body.events[0]!.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expected = new RegExp(`^${body.total} jazz events; first: ${title}\\n$`);
}, guard(300_000));

afterAll(async () => {
  await gw?.stop();
  if (app) rmSync(app, { recursive: true, force: true });
  if (tarball) rmSync(tarball, { force: true });
});

describe('the client package', () => {
  it('packs compiled ES modules and declarations, with openapi-fetch as its only dependency, in ≤ 100 KB', async () => {
    const { stdout } = await run('tar', ['tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/README.md');
    for (const file of files)
      expect(file).toMatch(/^package\/(package\.json|README\.md|LICENSE|dist\/\w+\.(js|d\.ts))$/);
    const manifest = JSON.parse(
      readFileSync(join(app, 'node_modules/@calendar-gateway/client/package.json'), 'utf8'),
    );
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    expect(statSync(tarball).size).toBeLessThanOrEqual(TARBALL_MAX);
  });

  it('installs in ≤ 5 MB with its dependency', () => {
    const installed = readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'));
    expect(installed.sort()).toEqual(['@calendar-gateway', 'openapi-fetch', 'openapi-typescript-helpers']);
    expect(bytesUnder(join(app, 'node_modules'))).toBeLessThanOrEqual(INSTALLED_MAX);
  });

  it("compiles the README's example with plain tsc --module nodenext and runs it on the system's Node", {
    timeout: guard(240_000),
  }, async () => {
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    await run(node, [tsc, '--module', 'nodenext', '--strict', 'index.ts'], { cwd: app, env: userEnv() });
    const { stdout: version } = await run(node, ['--version'], { env: userEnv() });
    expect(version).toMatch(/^v2\d\./);
    const { stdout } = await run(node, ['index.js'], { cwd: app, env: userEnv() });
    expect(stdout).toMatch(expected);
  });

  it('runs the same compiled example on Node 24', async () => {
    expect(process.versions.node).toMatch(/^24\./);
    const { stdout } = await run(process.execPath, ['index.js'], { cwd: app });
    expect(stdout).toMatch(expected);
  });

  it('runs the example bundled by vite (one file, no node_modules) on the system Node', async () => {
    const { build } = await import('vite');
    const out = join(app, 'bundle');
    await build({
      root: app,
      configFile: false,
      logLevel: 'silent',
      build: {
        lib: { entry: join(app, 'index.ts'), formats: ['es'], fileName: 'example' },
        outDir: out,
        target: 'esnext',
        minify: false,
      },
    });
    const alone = mkdtempSync(join(tmpdir(), 'client-bundle-'));
    try {
      const bundle = readFileSync(join(out, 'example.js'), 'utf8');
      expect(bundle).not.toMatch(/from ['"](openapi-fetch|@calendar-gateway\/client)['"]/);
      writeFileSync(join(alone, 'example.mjs'), bundle);
      const { stdout } = await run(node, ['example.mjs'], { cwd: alone, env: userEnv() });
      expect(stdout).toMatch(expected);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });
});
