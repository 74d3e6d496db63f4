// The text column gives back each row's text byte for byte, whatever its words, separators and long runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextColumn } from './text.ts';

/** Texts of words, separators, non-ASCII letters and runs longer than a token (stored as literal bytes). */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom('music', 'night', 'live', ' ', '. ', ', ', '—', 'niño', 'straße', '東京', '🎵', '\n'),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.stringMatching(/^[a-z0-9]{49,90}$/),
      fc.stringMatching(/^[ .,;:-]{49,60}$/),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join('').toLowerCase());

/** What a JS string reads back as after UTF-8 (lone surrogates become U+FFFD). */
const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

describe('TextColumn', () => {
  it('gives back every row as stored, from strings, bytes and another column, and says which strings it equals', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 60 }), (texts) => {
        const a = new TextColumn(256);
        const b = new TextColumn(64);
        a.perRow = [
          new Float64Array(texts.length),
          new Uint32Array(texts.length),
          new Uint32Array(texts.length),
        ];
        b.perRow = [
          new Float64Array(texts.length),
          new Uint32Array(texts.length),
          new Uint32Array(texts.length),
        ];
        for (const [r, s] of texts.entries()) {
          if (r % 2) a.put(r, s);
          else {
            const bytes = Buffer.from(`xx${s}yy`, 'utf8');
            a.putBytes(r, bytes, 2, bytes.length - 2);
          }
          b.copyRow(r, a, r);
        }
        for (const [r, s] of texts.entries()) {
          const want = utf8(s);
          for (const c of [a, b]) {
            expect(c.view(r).toString('utf8')).toBe(want);
            expect(c.string(r)).toBe(want);
            expect(c.length(r)).toBe(Buffer.byteLength(want));
            expect(c.equals(r, want)).toBe(true);
            expect(c.equals(r, `${want}x`)).toBe(false);
            if (want.length) expect(c.equals(r, want.slice(1))).toBe(false);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
