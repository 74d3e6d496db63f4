// The body parsers' text decoders, loaded at start-up: iconv-lite (under express's body-parser and raw-body) reads
// its tables of every encoding the first time a body is decoded, 8–11 ms of main-thread CPU inside a gateway's first
// write (measured by `BENCH_BUSY_TASKS=1 npm run bench:busy`, issue 33), while reads wait behind it.
import { createRequire } from 'node:module';

/** Loads the decoders the JSON and form parsers use; a missing module only means nothing to warm. */
export function warmBodyDecoders(): void {
  try {
    const fromExpress = createRequire(createRequire(import.meta.url).resolve('express'));
    const fromParser = createRequire(fromExpress.resolve('body-parser'));
    const iconv = fromParser('iconv-lite') as { getDecoder(encoding: string): unknown };
    iconv.getDecoder('utf-8');
  } catch {
    // Another layout of node_modules: the first write loads them, as before.
  }
}
