// HTML to plain text, as search and feeds read it.
import { describe, expect, it } from 'vitest';
import { plainText } from './plain.ts';

describe('plainText', () => {
  it.each([
    ['<p>a</p><p>b</p>', ' a  b '],
    ['al<strong>so</strong>', 'also'],
    ['x<br/>y', 'x y'],
    ['<script>alert(1)</script>ok', 'ok'],
    ['<!-- wp:image {"id":3} -->pic', 'pic'],
    ['&lt;tag&gt; &amp; &#8217; &#x41; &bogus;', '<tag> & ’ A &bogus;'],
  ])('turns %j into %j', (html, text) => {
    expect(plainText(html)).toBe(text);
  });
});
