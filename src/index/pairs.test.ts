// Word-pair signatures: a text holding a phrase always has the phrase's pair bits (never a row wrongly skipped).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayHold, offsetOf, PAGE_ROWS, PairPages, phraseMask, SIG_WORDS, signText } from './pairs.ts';

/** Short and long words, non-ASCII ones, and separators of several kinds, so that pieces and gaps vary. */
const WORDS = [
  'jazz',
  'night',
  'a',
  'of',
  'rock',
  'roll',
  'café',
  'naïve',
  'x\u0301',
  'n',
  '日本語',
  'the',
  '_1',
];
const SEPS = [' ', ' ', '  ', '\n', "'", ', ', '-', '. ', '—'];
const text = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPS)), { maxLength: 30 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

const signatureOf = (t: string): Uint32Array => {
  const bytes = Buffer.from(t, 'utf8');
  const sig = new Uint32Array(SIG_WORDS);
  signText(bytes, 0, bytes.length, sig, 0);
  return sig;
};

describe('pair signatures', () => {
  it('keep every text that holds a term (substrings of the text, and terms made of the same words)', () => {
    const term = fc.oneof(
      text,
      fc
        .tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPS), fc.constantFrom(...WORDS))
        .map((p) => p.join('')),
    );
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), term, (t, a, b, other) => {
        const sig = signatureOf(t);
        // A substring at any code-unit bounds: pieces cut inside words at either end, or whole words.
        const from = a % (t.length + 1);
        const to = from + (b % (t.length - from + 1));
        for (const q of [t.slice(from, to), other]) {
          const mask = phraseMask(q);
          if (mask && Buffer.from(t, 'utf8').includes(Buffer.from(q, 'utf8')))
            expect(mayHold(sig, 0, mask), `${JSON.stringify(q)} in ${JSON.stringify(t)}`).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('give no mask when a term has no pair whose bytes it knows', () => {
    expect(phraseMask('jazz')).toBeNull();
    expect(phraseMask('--')).toBeNull();
    // "z n": both pieces may be parts of longer words (…z and n…), shorter than the bytes a key takes.
    expect(phraseMask('z n')).toBeNull();
    expect(phraseMask('jazz n')).toBeNull();
    // A short piece with a separator on both sides is a whole word: its bytes are known.
    expect(phraseMask('rock n roll')).not.toBeNull();
    expect(phraseMask('jazz night')).not.toBeNull();
    expect(phraseMask("rock'n")).toBeNull();
  });

  it('tell most texts lacking a phrase from those holding it (512 bits for about 100 pairs)', () => {
    const filler = Array.from({ length: 90 }, (_, i) => `w${i}`);
    let kept = 0;
    for (let i = 0; i < 200; i++) {
      // Both words, never side by side, among 90 others: what a common-word phrase meets in most rows.
      const t = ['night', ...filler.slice(0, 45), `v${i}`, 'jazz', ...filler.slice(45)].join(' ');
      if (mayHold(signatureOf(t), 0, phraseMask('jazz night') as Uint32Array)) kept++;
    }
    expect(kept).toBeLessThan(20);
    expect(mayHold(signatureOf('late jazz night.'), 0, phraseMask('jazz night') as Uint32Array)).toBe(true);
  });

  it('keep rows across pages: a filter over pages answers as each row signature does', () => {
    const pages = new PairPages();
    const texts: Buffer[] = [];
    for (let r = 0; r < 2 * PAGE_ROWS + 100; r++) {
      const t = Buffer.from(r % 3 === 0 ? `x jazz night ${r}` : `night ${r} jazz`, 'utf8');
      texts.push(t);
      signText(t, 0, t.length, pages.pageOf(r), offsetOf(r));
    }
    const mask = phraseMask('jazz night') as Uint32Array;
    const all = Int32Array.from(texts.keys());
    const read: number[] = [];
    const got = pages.filter(all, mask, (r) => {
      read.push(r);
      return texts[r].includes('jazz night');
    });
    expect([...got]).toEqual([...all].filter((r) => r % 3 === 0));
    // The text is read for the rows holding the phrase and a few false positives only.
    expect(read.length).toBeLessThan(texts.length / 3 + texts.length / 20);
    for (const r of read) {
      const sig = new Uint32Array(SIG_WORDS);
      signText(texts[r], 0, texts[r].length, sig, 0);
      expect(mayHold(sig, 0, mask)).toBe(true);
    }
  });
});
