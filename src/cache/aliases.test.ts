// URL aliases are bounded by bytes as well as by count: unique URLs (a search per visitor) cannot grow them past it.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ALIAS_BYTES, aliasBytes, UrlAliases } from './aliases.ts';

const req = (url: string) => ({ url, headers: { host: 'cal.example' } }) as unknown as IncomingMessage;

describe('UrlAliases', () => {
  it('keeps what it learnt, by the exact raw URL', () => {
    const a = new UrlAliases();
    a.learn(req('/wp-json/calendar/events/v1/events?per_page=5'), 'events|per_page=5');
    expect(a.lookup(req('/wp-json/calendar/events/v1/events?per_page=5'))).toBe('events|per_page=5');
    expect(a.lookup(req('/wp-json/calendar/events/v1/events?per_page=05'))).toBeUndefined();
  });

  it('holds at most ALIAS_BYTES, dropping the least recently used URLs first', () => {
    const a = new UrlAliases();
    // 2 000-character searches: 20 000 of them would be ~160 MB of strings counted by entries alone.
    const long = 'x'.repeat(2000);
    for (let i = 0; i < 5000; i++) a.learn(req(`/events?search=${long}${i}`), `events|search=${long}${i}`);
    const { entries, bytes } = a.size;
    expect(bytes).toBeLessThanOrEqual(ALIAS_BYTES);
    expect(entries).toBe(
      Math.floor(
        ALIAS_BYTES / aliasBytes(`cal.example||/events?search=${long}1000`, `events|search=${long}1000`),
      ),
    );
    expect(a.lookup(req(`/events?search=${long}4999`))).toBe(`events|search=${long}4999`);
    expect(a.lookup(req(`/events?search=${long}0`))).toBeUndefined();
  });

  it('does not keep a URL larger than one entry may be', () => {
    const a = new UrlAliases();
    a.learn(req(`/events?search=${'y'.repeat(20_000)}`), 'events|huge');
    expect(a.size.entries).toBe(0);
  });
});
