// HTML as plain text: what search matches, JSON-LD and iCalendar feeds carry (tags stripped, entities decoded).

const BLOCK_TAGS =
  /^(p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|blockquote|section|article|figure|figcaption|hr|pre)$/i;

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[e.toLowerCase()] ?? whole;
  });
}

/** HTML (or block markup) as plain text: comments, scripts and tags removed, entities decoded. */
export function plainText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '')
    // Block tags separate words; inline tags (`<strong>`) do not.
    .replace(/<\/?([a-z][a-z0-9-]*)\b[^>]*>/gi, (_, tag: string) => (BLOCK_TAGS.test(tag) ? ' ' : ''));
  return decodeEntities(text).replace(/\r/g, '');
}
