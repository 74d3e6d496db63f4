// `npm run companion:zip`: the companion plugin as an installable zip (folder calendar-gateway-companion/ with the main
// file, admin/, block/, readme.txt and the bundled mappings). Prints the zip's path as its last line.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const plugin = join(root, 'wordpress/companion');
export const FOLDER = 'calendar-gateway-companion';

/** The `Version:` of the plugin header. */
export function pluginVersion(main: string): string {
  const version = /^\s*\*\s*Version:\s*(\S+)\s*$/m.exec(main)?.[1];
  if (!version) throw new Error('the plugin header has no Version:');
  return version;
}

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });

/** Builds the zip into `outDir` and returns its path. */
export function buildCompanionZip(outDir = join(root, 'dist')): string {
  const version = pluginVersion(readFileSync(join(plugin, `${FOLDER}.php`), 'utf8'));
  const stable = /^Stable tag:\s*(\S+)\s*$/m.exec(readFileSync(join(plugin, 'readme.txt'), 'utf8'))?.[1];
  if (stable !== version) {
    throw new Error(
      `readme.txt's Stable tag (${stable}) differs from the plugin header's Version (${version})`,
    );
  }
  const entries: Record<string, Uint8Array> = {};
  for (const file of files(plugin)) entries[`${FOLDER}/${relative(plugin, file)}`] = readFileSync(file);
  const mappings = join(root, 'mappings');
  for (const name of readdirSync(mappings).filter((n) => n.endsWith('.json'))) {
    entries[`${FOLDER}/mappings/${name}`] = readFileSync(join(mappings, name));
  }
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, `${FOLDER}-${version}.zip`);
  writeFileSync(out, zipSync(entries, { level: 9 }));
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    console.log(buildCompanionZip(process.argv[2] ? resolve(process.argv[2]) : undefined));
  } catch (err) {
    console.error(`companion:zip: ${(err as Error).message}`);
    process.exit(1);
  }
}
