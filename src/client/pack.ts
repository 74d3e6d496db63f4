// `npm run client:pack`: builds the typed client (packages/client, plain tsc) and packs it as the npm tarball a
// front-end team installs (`npm install ./calendar-gateway-client-0.1.0.tgz`) or publishes to its own registry.
// The tarball's path is the last line printed.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLIENT_DIR = fileURLToPath(new URL('../../packages/client/', import.meta.url));

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
}

/** Compiles the client's sources to packages/client/dist (what its package.json exports). */
export function buildClient(): void {
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  execFileSync(process.execPath, [tsc, '-p', CLIENT_DIR], { stdio: 'inherit' });
}

/** Builds and packs the client; the tarball lands in packages/client. */
export function packClient(): Packed & { path: string } {
  buildClient();
  // The project's license file travels with the package (npm packs a LICENSE found beside package.json).
  const license = fileURLToPath(new URL('../../LICENSE', import.meta.url));
  if (existsSync(license)) copyFileSync(license, join(CLIENT_DIR, 'LICENSE'));
  // Built just above: the package's own prepack (for `npm pack` or `npm publish` in its folder) is not run again.
  const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', CLIENT_DIR], {
    cwd: CLIENT_DIR,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [packed] = JSON.parse(out) as [Packed];
  return { ...packed, path: join(CLIENT_DIR, packed.filename) };
}

if (import.meta.main) {
  const packed = packClient();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`${packed.entryCount} files, ${kb(packed.size)} packed, ${kb(packed.unpackedSize)} unpacked`);
  console.log(packed.path);
}
