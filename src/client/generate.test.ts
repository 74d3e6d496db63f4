import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientTypes, SCHEMA_FILE } from './generate.ts';

describe('typed client types', () => {
  it('are what the contract generates now (run `npm run client:types` after changing the contract)', async () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(await clientTypes());
  });
});
