// `npm run elements:build` (and, with --if-stale, `npm install`'s prepare): builds @calendar-gateway/elements: the typed client first
// (its declarations are the elements' types), the package's ES modules and declarations by plain tsc, then the one
// file a page loads with `<script type="module">`, every dependency in it, minified by rolldown. The gateway serves
// that file (src/elements/page.ts). Without the dev dependencies (a production install) it says so and does nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildClient } from '../client/pack.ts';

export const ELEMENTS_DIR = fileURLToPath(new URL('../../packages/elements/', import.meta.url));
/** The standalone bundle: the element, Lit and the client in one ES module. */
export const BUNDLE = join(ELEMENTS_DIR, 'dist', 'calendar-gateway-view.js');

/** Whether the build's tools are installed (they are dev dependencies). */
export function canBuild(): boolean {
  const require = createRequire(import.meta.url);
  try {
    require.resolve('rolldown');
    require.resolve('typescript');
    return true;
  } catch {
    return false;
  }
}

/** Builds the package into packages/elements/dist, and the bundle to `bundle` (the served one by default). */
export async function buildElements(bundle = BUNDLE): Promise<{ bytes: number; gzipped: number }> {
  buildClient();
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  execFileSync(process.execPath, [tsc, '-p', ELEMENTS_DIR], { stdio: 'inherit' });
  const { build } = await import('rolldown');
  await build({
    input: join(ELEMENTS_DIR, 'dist', 'index.js'),
    platform: 'browser',
    logLevel: 'warn',
    output: { file: bundle, format: 'esm', minify: true, comments: { legal: false } },
  });
  const code = readFileSync(bundle);
  return { bytes: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

/** The bundle is there and newer than every source file of the element and the client. */
export function bundleIsFresh(): boolean {
  if (!existsSync(BUNDLE)) return false;
  const built = statSync(BUNDLE).mtimeMs;
  for (const dir of [
    join(ELEMENTS_DIR, 'src'),
    fileURLToPath(new URL('../../packages/client/src/', import.meta.url)),
  ]) {
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.test.ts') && statSync(join(dir, f)).mtimeMs > built) return false;
    }
  }
  return true;
}

if (import.meta.main) {
  if (process.argv.includes('--if-stale') && bundleIsFresh()) {
    // Built since the sources last changed: `npm start` goes on at once.
  } else if (!canBuild()) {
    console.log(
      'calendar-gateway elements: not built (rolldown and typescript are dev dependencies, not installed here).',
    );
  } else {
    const { bytes, gzipped } = await buildElements();
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`calendar-gateway elements: ${BUNDLE} (${kb(bytes)}, ${kb(gzipped)} gzipped)`);
  }
}
