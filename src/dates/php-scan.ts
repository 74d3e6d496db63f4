// PHP's date parser (timelib_strtotime): a text into the fields it sets, the relative moves it asks, its zone.
import { actClock } from './php-act-clock.ts';
import { actRelative } from './php-act-relative.ts';
import { fail, newParsed, type Parsed, ParseError } from './php-parsed.ts';
import { Cursor } from './php-read.ts';
import { nextToken } from './php-rules.ts';

/** PHP trims with C's isspace before parsing. */
const trimC = (text: string) => text.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, '');

/** Parses `text` as timelib does; null where PHP reports an error (and its strtotime returns false). */
export function scanPhpDate(text: string): Parsed | null {
  if (text === '') return null;
  // PHP's timelib stops trimming at the last character, so a blank text scans that one blank: "now" for a space.
  const trimmed = trimC(text) || text[text.length - 1];
  const t = newParsed();
  // The scanner reads NUL after the text (some tokens, like `4pm`, end on it).
  const input = `${trimmed}\0`;
  try {
    for (let at = 0; at < trimmed.length; ) {
      const token = nextToken(input, at);
      const cur = new Cursor(token.text);
      if (token.rule === 'any') fail();
      else if (token.rule !== 'skip' && token.rule !== 'now')
        actClock(t, token.rule, cur) || actRelative(t, token.rule, cur);
      at += token.text.length;
    }
  } catch (error) {
    if (error instanceof ParseError) return null;
    throw error;
  }
  return t;
}
