// HTML as text a person reads: paragraphs and line breaks kept, tags and their source whitespace gone.
import { describe, expect, it } from 'vitest';
import { displayText, oneLine } from './display.ts';

describe('displayText', () => {
  it.each([
    ['<p>First line.<br />\nSecond line.</p>', 'First line.\nSecond line.'],
    ['<p>One.</p>\n\n<p>Two.</p>\n', 'One.\n\nTwo.'],
    ['<p>a</p><p></p><p></p><p>b</p>', 'a\n\nb'],
    ['al<strong>so</strong> <em>this</em>', 'also this'],
    ['<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->', 'x'],
    ['<script>alert(1)</script><style>p{}</style>ok', 'ok'],
    ['<ul><li>one</li><li>two</li></ul>', '- one\n- two'],
    ['<h2>Programme</h2><p>Doors at 19:30.</p>', 'Programme\n\nDoors at 19:30.'],
    ['See <a href="https://example.com/x">the map</a> <img src="m.png" alt="map">.', 'See the map .'],
    ['&lt;tag&gt; &amp; &#8217; &#x41; caf&eacute; a&nbsp;b', '<tag> & ’ A café a b'],
    ['source\nnewlines   collapse', 'source newlines collapse'],
    ['', ''],
  ])('turns %j into %j', (html, text) => {
    expect(displayText(html)).toBe(text);
  });

  it('oneLine keeps the words on one line', () => {
    expect(oneLine('<p>Trio<br>&#8220;Live&#8221;</p><p>again</p>')).toBe('Trio “Live” again');
  });
});
