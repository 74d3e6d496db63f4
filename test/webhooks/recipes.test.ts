// The recipes of docs/front-end.md as a front-end team copies them: compiled by tsc (strict) against the
// standardwebhooks package, `next/cache` declared by a stub with revalidateTag's signature (Next.js itself is too heavy
// to install here), then run: the Next.js route handler revalidates the payload's tags for a signed request and
// refuses a forged one; the relay starts one build for a burst of signed changes.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/lib.ts';
import { newSecret, signedHeaders } from '../../src/webhooks/signing.ts';
import { guard } from '../slack.ts';
import { receiver, until } from './support.ts';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

/** The doc's `typescript` blocks (not run by the docs-commands test: they serve or need Next.js) that name their file on their first line (`// app/api/…/route.ts`). */
function recipes(): Map<string, string> {
  const doc = readFileSync(join(root, 'docs/front-end.md'), 'utf8');
  const out = new Map<string, string>();
  for (const m of doc.matchAll(/^```typescript\n\/\/ (\S+\.ts)[^\n]*\n([\s\S]*?)^```$/gm))
    out.set(m[1]!, `// ${m[1]}\n${m[2]}`);
  return out;
}

/** Next.js's types as the recipes use them: revalidateTag, and the `next` option it adds to fetch. */
const NEXT_CACHE_TYPES =
  'export declare function revalidateTag(tag: string, profile?: string | { expire?: number }): void;\n';
const NEXT_ENV = `declare global {
  interface RequestInit {
    next?: { revalidate?: number | false; tags?: string[] };
  }
}
export {};
`;

describe('the front-end recipes of docs/front-end.md', () => {
  let app: string;
  const files = recipes();
  beforeAll(() => {
    app = mkdtempSync(join(tmpdir(), 'cg-recipes-'));
    for (const [path, text] of files) {
      mkdirSync(dirname(join(app, path)), { recursive: true });
      writeFileSync(join(app, path), text);
    }
    writeFileSync(join(app, 'next-env.d.ts'), NEXT_ENV);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    mkdirSync(join(app, 'node_modules/next'), { recursive: true });
    symlinkSync(join(root, 'node_modules/standardwebhooks'), join(app, 'node_modules/standardwebhooks'));
    // At run time, revalidateTag notes its tags where the test reads them.
    writeFileSync(
      join(app, 'node_modules/next/package.json'),
      JSON.stringify({
        name: 'next',
        type: 'module',
        exports: { './cache': { types: './cache.d.ts', default: './cache.js' } },
      }),
    );
    writeFileSync(
      join(app, 'node_modules/next/cache.js'),
      'export const revalidateTag = (tag) => (globalThis.revalidated ??= []).push(tag);\n',
    );
    writeFileSync(join(app, 'node_modules/next/cache.d.ts'), NEXT_CACHE_TYPES);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          target: 'es2023',
          lib: ['es2023', 'dom', 'dom.iterable'],
          types: ['node'],
          typeRoots: [join(root, 'node_modules/@types')],
          skipLibCheck: true,
        },
        include: ['**/*.ts'],
      }),
    );
  });
  afterAll(() => rmSync(app, { recursive: true, force: true }));

  it('has the three files: the tagged fetches, the route handler and the relay', () => {
    expect([...files.keys()].sort()).toEqual([
      'app/api/calendar-webhook/route.ts',
      'lib/calendar.ts',
      'relay.ts',
    ]);
  });

  it('compiles them with tsc --strict', { timeout: guard(60_000) }, async () => {
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const out = await run(process.execPath, [tsc, '-p', app], { cwd: app }).catch(
      (err: { stdout: string }) => err,
    );
    expect(out.stdout).toBe('');
  });

  it('revalidates the tags of a signed request, and refuses a forged one', async () => {
    const secret = newSecret();
    const body = JSON.stringify({
      type: 'event.updated',
      timestamp: new Date().toISOString(),
      data: { kind: 'event', id: 42, rest_url: 'https://x.test/e/42', tags: ['event:42', 'list:event'] },
    });
    const headers = signedHeaders([secret], 'msg_1', Math.floor(Date.now() / 1000), body);
    const script = `
      const { POST } = await import('./app/api/calendar-webhook/route.ts');
      const call = (h, b) => POST(new Request('http://site.test/api/calendar-webhook', { method: 'POST', headers: h, body: b }));
      const good = await call(${JSON.stringify(headers)}, ${JSON.stringify(body)});
      const forged = await call(${JSON.stringify(headers)}, ${JSON.stringify(body.replace('42', '43'))});
      console.log(JSON.stringify({ good: good.status, forged: forged.status, tags: globalThis.revalidated }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: app,
      env: { ...process.env, CALENDAR_WEBHOOK_SECRET: secret },
    });
    expect(JSON.parse(stdout)).toEqual({ good: 204, forged: 401, tags: ['event:42', 'list:event'] });
  });

  it('starts one build for a burst of signed changes through the relay, and none for a forged one', async () => {
    const hook = await receiver();
    const secret = newSecret();
    const port = await freePort();
    const relay = spawn(process.execPath, [join(app, 'relay.ts')], {
      cwd: app,
      env: {
        ...process.env,
        CALENDAR_WEBHOOK_SECRET: secret,
        BUILD_HOOK_URL: hook.url,
        QUIET_MS: '300',
        PORT: String(port),
      },
      stdio: 'ignore',
    });
    try {
      const post = (body: string, id: string, forge = false) =>
        fetch(`http://127.0.0.1:${port}/`, {
          method: 'POST',
          headers: signedHeaders([forge ? newSecret() : secret], id, Math.floor(Date.now() / 1000), body),
          body,
        }).then((r) => r.status);
      await until('the relay listening', () => post('{}', 'msg_0', true).catch(() => 0));
      expect(await post('{}', 'msg_f', true)).toBe(401);
      for (let i = 1; i <= 3; i++) expect(await post(`{"n":${i}}`, `msg_${i}`)).toBe(204);
      await until('a build', () => hook.deliveries.length === 1);
      await new Promise((r) => setTimeout(r, 600));
      expect(hook.deliveries).toHaveLength(1);
    } finally {
      relay.kill();
      await hook.close();
    }
  });
});
