// Loads a mapping file synchronously for tests (the gateway itself uses the async loader in src/gateway.ts).
import { readFileSync } from 'node:fs';
import { type Mapping, mappingSchema } from './schema.ts';

export const loadMappingSync = (path: string): Mapping =>
  mappingSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
