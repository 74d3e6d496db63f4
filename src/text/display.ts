// HTML as the plain text a person reads (iCalendar DESCRIPTION, JSON-LD description): paragraphs and line breaks kept.
//
// html-to-text parses the HTML as a browser would (htmlparser2: whitespace in the source collapses, every named
// entity decodes) and lays blocks out as text: a paragraph ends with a blank line, `<br>` with a line break, list
// items start lines. Search reads words only and keeps its faster regex (plain.ts).
import { compile } from 'html-to-text';
import { LRUCache } from 'lru-cache';

const heading = (h: string) => ({ selector: h, options: { uppercase: false } });

const convert = compile({
  // A line is as long as the text's; the reader's app wraps it.
  wordwrap: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'ul', options: { itemPrefix: '- ' } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map(heading),
    { selector: 'hr', format: 'block' },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
});

/**
 * Texts already made, by their HTML: a feed built again after one event changed converts that event's alone (a
 * conversion costs ~30 lookups: bench/display-text.ts). Bounded by the characters held.
 */
const made = new LRUCache<string, string>({
  maxSize: 8_000_000,
  sizeCalculation: (text, html) => text.length + html.length + 1,
});

/** The HTML's text with its line breaks (`\n`), a blank line between paragraphs; no leading or trailing blanks. */
export function displayText(html: string): string {
  // Text without markup or entities reads as it is, its whitespace collapsed as HTML's is (most names and titles).
  if (!/[<&]/.test(html)) return html.replace(/\s+/g, ' ').trim();
  let text = made.get(html);
  if (text === undefined) {
    // Lines keep no trailing spaces; spaces WordPress leaves (`&nbsp;`) are spaces.
    text = convert(html)
      .replace(/\u00a0/g, ' ')
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    made.set(html, text);
  }
  return text;
}

/** The same text on one line (a title, a name, an address part). */
export const oneLine = (html: string): string => displayText(html).replace(/\s+/g, ' ');
