// WordPress 6.1's wptexturize (in the_title, the_content and the_excerpt): a port of its rules, in its order. Text
// between HTML elements is texturized, elements only get their ampersands escaped, and nothing inside pre, code, kbd,
// style, script or tt is touched. Shortcodes are out of scope: the mock registers none.

const SP = '(?:[\\r\\n\\t ]|\\u00a0|&nbsp;)';
const OPEN_Q = '&#8220;';
const CLOSE_Q = '&#8221;';
const APOS = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const OPEN_SQ = '&#8216;';
const CLOSE_SQ = '&#8217;';
const EN_DASH = '&#8211;';
const EM_DASH = '&#8212;';
const OPEN_Q_FLAG = '<!--oq-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const APOS_FLAG = '<!--apos-->';

const COCKNEY = [
  "'tain't",
  "'twere",
  "'twas",
  "'tis",
  "'twill",
  "'til",
  "'bout",
  "'nuff",
  "'round",
  "'cause",
  "'em",
];
const STATIC: Array<[string, string]> = [
  ['...', '&#8230;'],
  ['``', OPEN_Q],
  ["''", CLOSE_Q],
  [' (tm)', ' &#8482;'],
  ...COCKNEY.map((w): [string, string] => [w, w.replaceAll("'", APOS)]),
];

const END = `(?=$|[.,:;!?)}\\-\\]]|&gt;|${SP})`;
const APOS_RULES: Array<[RegExp, string]> = [
  [new RegExp(`'(\\d\\d)'${END}`, 'g'), `${APOS_FLAG}$1${CLOSE_SQ}`],
  [new RegExp(`'(\\d\\d)"${END}`, 'g'), `${APOS_FLAG}$1${CLOSE_Q}`],
  [/'(?=\d\d(?:$|(?![%\d]|[.,]\d)))/g, APOS_FLAG],
  [new RegExp(`(?<=^|${SP})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSE_SQ}`],
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SP})'`, 'g'), OPEN_SQ_FLAG],
  [new RegExp(`(?<!${SP})'(?!$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SP})`, 'g'), APOS_FLAG],
];
const QUOTE_RULES: Array<[RegExp, string]> = [
  [new RegExp(`(?<=^|${SP})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSE_Q}`],
  [new RegExp(`(?<=^|[([{\\-]|&lt;|${SP})"(?!${SP})`, 'g'), OPEN_Q_FLAG],
];
const DASH_RULES: Array<[RegExp, string]> = [
  [/---/g, EM_DASH],
  [new RegExp(`(?<=^|${SP})--(?=$|${SP})`, 'g'), EM_DASH],
  [/(?<!xn)--/g, EN_DASH],
  [new RegExp(`(?<=^|${SP})-(?=$|${SP})`, 'g'), EN_DASH],
];

const apply = (s: string, rules: Array<[RegExp, string]>) =>
  rules.reduce((t, [re, to]) => t.replace(re, to), s);
const count = (s: string, needle: string) => s.split(needle).length - 1;

/** wptexturize_primes: closing quotes versus primes (9' and 9") within each quotation. */
function primes(
  haystack: string,
  needle: "'" | '"',
  prime: string,
  openQuote: string,
  closeQuote: string,
): string {
  const flag = '<!--wp-prime-or-quote-->';
  const quotePattern = new RegExp(`${needle}${END}`, 'g');
  const primePattern = new RegExp(`(?<=\\d)${needle}`, 'g');
  const flagAfterDigit = new RegExp(`(?<=\\d)${flag}`, 'g');
  const flagNoDigit = new RegExp(`(?<!\\d)${flag}`, 'g');
  const sentences = haystack.split(openQuote);
  for (let key = 0; key < sentences.length; key++) {
    let sentence = sentences[key] as string;
    if (!sentence.includes(needle)) continue;
    if (key !== 0 && count(sentence, closeQuote) === 0) {
      let found = 0;
      sentence = sentence.replace(quotePattern, () => {
        found++;
        return flag;
      });
      if (found > 1) {
        // Several closing candidates: WordPress's "Vulcan logic".
        let closed = 0;
        sentence = sentence.replace(flagNoDigit, () => {
          closed++;
          return closeQuote;
        });
        if (closed === 0) {
          const pos =
            count(sentence, `${flag}.`) > 0 ? sentence.lastIndexOf(`${flag}.`) : sentence.lastIndexOf(flag);
          sentence = sentence.slice(0, pos) + closeQuote + sentence.slice(pos + flag.length);
        }
        sentence = sentence
          .replace(primePattern, prime)
          .replace(flagAfterDigit, prime)
          .replaceAll(flag, closeQuote);
      } else if (found === 1) {
        sentence = sentence.replaceAll(flag, closeQuote).replace(primePattern, prime);
      } else {
        sentence = sentence.replace(primePattern, prime);
      }
    } else {
      sentence = sentence.replace(primePattern, prime).replace(quotePattern, closeQuote);
    }
    if (needle === '"' && sentence.includes('"')) sentence = sentence.replaceAll('"', closeQuote);
    sentences[key] = sentence;
  }
  return sentences.join(openQuote);
}

const AMP = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;
const NO_TEXTURIZE = new Set(['pre', 'code', 'kbd', 'style', 'script', 'tt']);
/** _get_wptexturize_split_regex without shortcodes: comments, and elements (an unclosed `<` runs to the end). */
const SPLIT = /(<(?:!--[\s\S]*?(?:-->|$)|[^>]*>?))/;

/** _wptexturize_pushpop_element: tracks open no-texturize elements. */
function pushPop(tag: string, stack: string[]): void {
  const closing = tag[1] === '/';
  if (closing && stack.length === 0) return;
  const name = tag.slice(closing ? 2 : 1).split(/[\s>]/)[0] ?? '';
  if (!NO_TEXTURIZE.has(name)) return;
  if (!closing) stack.push(name);
  else if (stack.at(-1) === name) stack.pop();
}

export function texturize(text: string): string {
  if (!text) return text;
  const stack: string[] = [];
  return text
    .split(SPLIT)
    .map((part, i) => {
      if (i % 2 === 1) {
        if (part.startsWith('<!--')) return part;
        const escaped = part.replace(AMP, '&#038;');
        pushPop(part, stack);
        return escaped;
      }
      return part.trim() === '' || stack.length > 0 ? part : texturizeText(part);
    })
    .join('');
}

function texturizeText(text: string): string {
  let s = text;
  for (const [from, to] of STATIC) s = s.replaceAll(from, to);
  if (s.includes("'")) {
    s = primes(apply(s, APOS_RULES), "'", PRIME, OPEN_SQ_FLAG, CLOSE_SQ);
    s = s.replaceAll(APOS_FLAG, APOS).replaceAll(OPEN_SQ_FLAG, OPEN_SQ);
  }
  if (s.includes('"')) {
    s = primes(apply(s, QUOTE_RULES), '"', DOUBLE_PRIME, OPEN_Q_FLAG, CLOSE_Q);
    s = s.replaceAll(OPEN_Q_FLAG, OPEN_Q);
  }
  if (s.includes('-')) s = apply(s, DASH_RULES);
  // 9x9 (times), but never 0x9999 (PHP's conditional group, written out: a leading 0 needs more digits).
  if (/(?<=\d)x\d/.test(s)) s = s.replace(/\b(0[\d.,]+|[1-9][\d.,]*)x(\d[\d.,]*)\b/g, '$1&#215;$2');
  return s.replace(AMP, '&#038;');
}
