// URL aliases are bounded by bytes as well as by count: unique URLs (a search per visitor) cannot grow them past it.
import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALIAS_BYTES, aliasBytes, UrlAliases } from './aliases.ts';

const req = (url: string) => ({ url, headers: { host: 'cal.example' } }) as unknown as IncomingMessage;
const raw = (url: string, host?: string, proto?: string, originalUrl?: string) =>
  ({
    url,
    originalUrl,
    headers: {
      ...(host === undefined ? {} : { host }),
      ...(proto === undefined ? {} : { 'x-forwarded-proto': proto }),
    },
  }) as unknown as IncomingMessage;

describe('UrlAliases', () => {
  it('keeps what it learnt, by the exact raw URL', () => {
    const a = new UrlAliases();
    a.learn(req('/wp-json/calendar/events/v1/events?per_page=5'), 'events|per_page=5');
    expect(a.lookup(req('/wp-json/calendar/events/v1/events?per_page=5'))).toMatchObject({
      key: 'events|per_page=5',
      route: 'events',
    });
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
    expect(a.lookup(req(`/events?search=${long}4999`))).toMatchObject({ key: `events|search=${long}4999` });
    expect(a.lookup(req(`/events?search=${long}0`))).toBeUndefined();
  });

  it('does not keep a URL larger than one entry may be', () => {
    const a = new UrlAliases();
    a.learn(req(`/events?search=${'y'.repeat(20_000)}`), 'events|huge');
    expect(a.size.entries).toBe(0);
  });

  it('tells apart the same URL asked for under another Host or scheme header', () => {
    const a = new UrlAliases();
    a.learn(raw('/events', 'a.example'), 'events.list|a');
    a.learn(raw('/events', 'b.example'), 'events.list|b');
    a.learn(raw('/events', 'a.example', 'https'), 'events.list|a-https');
    expect(a.lookup(raw('/events', 'a.example'))?.key).toBe('events.list|a');
    expect(a.lookup(raw('/events', 'b.example'))?.key).toBe('events.list|b');
    expect(a.lookup(raw('/events', 'a.example', 'https'))?.key).toBe('events.list|a-https');
    expect(a.lookup(raw('/events', 'b.example', 'https'))).toBeUndefined();
    expect(a.lookup(raw('/events'))).toBeUndefined();
    // What arrived (express's originalUrl), not what a mount point left in `url`.
    a.learn(raw('/events', 'a.example', undefined, '/wp-json/events'), 'events.list|mounted');
    expect(a.lookup(raw('/wp-json/events', 'a.example'))?.key).toBe('events.list|mounted');
    expect(a.lookup(raw('/events', 'a.example'))?.key).toBe('events.list|a');
  });

  it('counts hits under the route the key starts with', () => {
    const a = new UrlAliases();
    a.learn(raw('/e', 'h'), 'events.list|en|anonymous|x|per_page=10');
    expect(a.lookup(raw('/e', 'h'))?.route).toBe('events.list');
  });

  it('keeps a bounded number of Host and scheme pairs per URL, the latest learnt', () => {
    const a = new UrlAliases();
    for (let i = 0; i < 20; i++) a.learn(raw('/events', `h${i}.example`), `events.list|${i}`);
    expect(a.size.entries).toBe(8);
    expect(a.lookup(raw('/events', 'h19.example'))?.key).toBe('events.list|19');
    expect(a.lookup(raw('/events', 'h12.example'))?.key).toBe('events.list|12');
    expect(a.lookup(raw('/events', 'h11.example'))).toBeUndefined();
  });

  it('answers as a map keyed by Host, scheme header and URL joined (property)', () => {
    const input = fc.record({
      url: fc.constantFrom('/a', '/a?x=1', '/b', '/a|b', ''),
      host: fc.option(fc.constantFrom('h', 'h|', 'k', ''), { nil: undefined }),
      proto: fc.option(fc.constantFrom('http', 'https', '|https', ''), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), input, fc.constantFrom('r.x|1', 'r.x|2', 's|3')), { maxLength: 60 }),
        (steps) => {
          const a = new UrlAliases();
          const model = new Map<string, string>();
          // Separated by a character no header or path holds, so the model never joins two inputs into one.
          const id = (i: typeof input extends fc.Arbitrary<infer T> ? T : never) =>
            `${i.host ?? ''}\n${i.proto ?? ''}\n${i.url}`;
          for (const [learn, i, key] of steps) {
            const r = raw(i.url, i.host, i.proto);
            if (learn) {
              a.learn(r, key);
              model.set(id(i), key);
            } else {
              expect(a.lookup(r)?.key).toBe(model.get(id(i)));
            }
          }
          for (const [, i] of steps)
            expect(a.lookup(raw(i.url, i.host, i.proto))?.key).toBe(model.get(id(i)));
        },
      ),
    );
  });
});
