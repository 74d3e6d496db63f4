// The shell and TypeScript blocks of README.md and docs/*.md, run against a demo gateway as a reader would run them:
// every `sh` block in bash (curl's status of each call checked), every `ts` block with the project's Node, importing
// `@calendar-gateway/client` as the compiled package (npm's workspace link to packages/client, built first).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClient } from '../../src/client/pack.ts';
import { guard } from '../slack.ts';
import { type Server, startDemo } from './demo.ts';

const root = new URL('../../', import.meta.url).pathname;
const run = promisify(execFile);
const PASSWORD = 'readme-demo-password';
let gw: Server;

interface Block {
  file: string;
  line: number;
  lang: string;
  code: string;
}

function blocks(): Block[] {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
    f.endsWith('.md'),
  );
  const found: Block[] = [];
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^```(sh|ts)$/.exec(lines[i]!);
      if (!open) continue;
      const start = i;
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
      found.push({ file, line: start + 1, lang: open[1]!, code: body.join('\n') });
    }
  }
  return found;
}

/** A block as run here: the demo's URL for localhost:3000, the password already exported. */
const localise = (code: string) =>
  code
    .replaceAll('http://localhost:3000', gw.url)
    .split('\n')
    .filter((l) => !/^export DEMO_PASSWORD=/.test(l))
    .join('\n');

beforeAll(async () => {
  buildClient();
  gw = await startDemo({ DEMO_PASSWORD: PASSWORD });
}, guard(120_000));

afterAll(async () => {
  await gw?.stop();
});

const all = blocks();

describe('documentation commands', () => {
  it('finds the README examples', () => {
    expect(all.filter((b) => b.file === 'README.md' && b.lang === 'sh').length).toBeGreaterThanOrEqual(2);
    expect(all.some((b) => b.lang === 'ts')).toBe(true);
  });

  it.each(all.filter((b) => b.lang === 'sh').map((b) => [`${b.file}:${b.line}`, b] as const))(
    '%s runs, every call answering as the block says',
    async (_name, block) => {
      // Each curl call reports its status on stderr; a block that shows an error body names the status it expects.
      const script = `set -euo pipefail\ncurl() { command curl -sS -w '%{stderr}HTTP %{http_code}\\n' "$@"; }\n${localise(block.code)}\n`;
      const { stdout, stderr } = await run('bash', ['-c', script], {
        env: { ...process.env, DEMO_PASSWORD: PASSWORD },
        maxBuffer: 32 << 20,
      });
      const statuses = [...stderr.matchAll(/^HTTP (\d{3})$/gm)].map((m) => Number(m[1]));
      expect(statuses.length, stderr).toBeGreaterThan(0);
      const expected = /"status":(\d{3})/.exec(block.code)?.[1];
      for (const status of statuses) {
        if (expected) expect(status, stdout.slice(0, 500)).toBe(Number(expected));
        else expect(status, stdout.slice(0, 500)).toBeLessThan(300);
      }
    },
  );

  it.each(all.filter((b) => b.lang === 'ts').map((b) => [`${b.file}:${b.line}`, b] as const))(
    '%s runs on the package (imports resolved as a user of the package resolves them)',
    async (_name, block) => {
      const file = join(root, `.docs-block-${process.pid}-${block.line}.ts`);
      writeFileSync(file, `${localise(block.code)}\nexport {};\n`);
      try {
        await run(process.execPath, [file], { cwd: root, env: { ...process.env, DEMO_PASSWORD: PASSWORD } });
      } finally {
        rmSync(file, { force: true });
      }
    },
  );
});
