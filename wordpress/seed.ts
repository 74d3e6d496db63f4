// CLI run by wp.sh: node wordpress/seed.ts <UPSTREAM_URL> <admin:password> <mapping.json> — seeds the sample site.
import { readFileSync } from 'node:fs';
import { buildSeed } from '../mocks/seed-data.ts';
import { mappingSchema } from '../src/mapping/schema.ts';
import { seedSite } from './seeder.ts';

const [url, auth, mappingPath] = process.argv.slice(2);
if (!url || !auth || !mappingPath) {
  process.stderr.write('usage: node wordpress/seed.ts <UPSTREAM_URL> <login:password> <mapping.json>\n');
  process.exit(2);
}
const mapping = mappingSchema.parse(JSON.parse(readFileSync(mappingPath, 'utf8')));
const site = buildSeed(mapping, new Date());
const t0 = performance.now();
const counts = await seedSite({ url, auth, mapping, site });
const seconds = ((performance.now() - t0) / 1000).toFixed(1);
process.stderr.write(
  `seed: done in ${seconds}s (${counts.posts} posts, ${counts.terms} terms, ${counts.users} new users)\n`,
);
