// `node bench/display-text.ts`: what an event description costs as feed and JSON-LD text (src/text/display.ts), new
// and memoised, beside the whitespace-collapsing tag stripper it replaced. Medians of 7 rounds; CPU only, no I/O.
import { displayText } from '../src/text/display.ts';
import { plainText } from '../src/text/plain.ts';

const ROUNDS = 7;
const N = 5000;

/** A block-editor description of two paragraphs, a line break, a list and entities (about 500 characters). */
const sample = (i: number): string =>
  `<!-- wp:paragraph --><p>The Harbour Quartet plays standards under the stars, night ${i}.<br />\nDoors open at 19:30 &amp; the bar&nbsp;too.</p><!-- /wp:paragraph -->\n\n<!-- wp:paragraph --><p>Bring a <strong>chair</strong> and <a href="https://example.com/map">friends</a>: caf&eacute; on site.</p><!-- /wp:paragraph -->\n\n<!-- wp:list --><ul><li>Free for children</li><li>Step-free access</li></ul><!-- /wp:list -->`;

const before = (html: string): string => plainText(html).replace(/\s+/g, ' ').trim();

/** `make(round, i)`: the round's inputs (new ones each round for an unmemoised cost). */
function perCall(make: (round: number, i: number) => string, fn: (html: string) => string): number {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const inputs = Array.from({ length: N }, (_, i) => make(r, i));
    const t0 = performance.now();
    for (const html of inputs) fn(html);
    rounds.push(((performance.now() - t0) * 1000) / N);
  }
  rounds.sort((a, b) => a - b);
  return rounds[Math.floor(ROUNDS / 2)] ?? 0;
}

// Warm both paths' code first.
perCall((_r, i) => sample(i), before);
perCall((_r, i) => sample(1e6 + i), displayText);

const cold = perCall((r, i) => sample(2e6 + r * N + i), displayText);
const memoised = perCall((_r, i) => sample(i), displayText);
const old = perCall((_r, i) => sample(i), before);
const f = (n: number) => n.toFixed(2).padStart(8);
console.log('µs per description (median of 7 rounds of 5000)');
console.log(`displayText, new text   ${f(cold)}`);
console.log(`displayText, memoised   ${f(memoised)}`);
console.log(`before (tags stripped)  ${f(old)}`);
console.log(`ratio new / before      ${f(cold / old)}`);
console.log(`a 2000-event cold feed: +${(((cold - old) * 2000) / 1000).toFixed(0)} ms of descriptions`);
