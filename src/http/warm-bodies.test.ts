import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { warmBodyDecoders } from './warm-bodies.ts';

describe('warmBodyDecoders', () => {
  it('loads the decoder tables the body parsers use, so the first write does not', () => {
    const fromExpress = createRequire(createRequire(import.meta.url).resolve('express'));
    const iconv = createRequire(fromExpress.resolve('body-parser'))('iconv-lite') as { encodings: unknown };
    const before = iconv.encodings;
    warmBodyDecoders();
    expect(before).toBeNull();
    expect(iconv.encodings).toBeTypeOf('object');
    expect(iconv.encodings).not.toBeNull();
  });
});
