// The element's bundle as a page loads it: every dependency in it (Lit, the typed client, openapi-fetch), no import
// left, within the budget of 25 KB gzipped; and the package's ES modules and declarations as tsc emits them.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guard } from '../../test/slack.ts';
import { buildElements, ELEMENTS_DIR } from './build.ts';

const BUDGET = 25 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'elements-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the elements build', () => {
  it('bundles the element with Lit and the client into one ES module of at most 25 KB gzipped', {
    timeout: guard(120_000),
  }, async () => {
    const bundle = join(dir, 'calendar-gateway-view.js');
    const { bytes, gzipped } = await buildElements(bundle);
    console.log(`bundle: ${(bytes / 1024).toFixed(1)} KB, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThanOrEqual(BUDGET);
    const code = readFileSync(bundle, 'utf8');
    // Self-contained: no import of anything (a bare `lit` or `openapi-fetch` would not load in a browser).
    expect(code).not.toMatch(/\bimport\s*[\w{*][^;]*?from\s*["']/);
    expect(code).not.toMatch(/\bimport\(/);
    expect(code).toContain('calendar-gateway-view');
  });

  it('emits ES modules and declarations for bundlers, importing lit and the client by name', () => {
    for (const file of ['index.js', 'index.d.ts', 'element.js', 'element.d.ts']) {
      expect(existsSync(join(ELEMENTS_DIR, 'dist', file)), file).toBe(true);
    }
    const element = readFileSync(join(ELEMENTS_DIR, 'dist', 'element.js'), 'utf8');
    expect(element).toMatch(/from ['"]lit['"]/);
    expect(element).toMatch(/from ['"]@calendar-gateway\/client['"]/);
    expect(element).toMatch(/from ['"]\.\/dates\.js['"]/);
    expect(readFileSync(join(ELEMENTS_DIR, 'dist', 'index.d.ts'), 'utf8')).toContain('CalendarGatewayView');
  });
});
