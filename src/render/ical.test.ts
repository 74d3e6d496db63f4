// The iCalendar renderer, read back by an independent parser (ical.js) and checked against RFC 5545's line rules.
import fc from 'fast-check';
import ICAL from 'ical.js';
import nodeIcal from 'node-ical';
import { describe, expect, it } from 'vitest';
import { type CalendarInfo, renderCalendar, renderCalendarBytes, warmRenderer } from './ical.ts';

const info: CalendarInfo = { name: 'Jazz; Blues, and \\ more', host: 'example.com', refreshSeconds: 300 };

const event = (extra: Record<string, unknown> = {}) => ({
  id: 61,
  title: 'Trio &#8220;Live&#8221;; 2, 3 \\ 4',
  description: '<p>First.</p><p>Second &amp; last.</p>',
  url: 'https://example.com/event/trio/',
  date_utc: '2026-01-02 10:00:00',
  modified_utc: '2026-03-04 05:06:07',
  start_date: '2027-06-12 20:00:00',
  end_date: '2027-06-12 23:00:00',
  utc_start_date: '2027-06-12 18:00:00',
  utc_end_date: '2027-06-12 21:00:00',
  timezone: 'Europe/Madrid',
  all_day: false,
  event_status: 'scheduled',
  venue: { id: 7, venue: 'Roof Garden', address: '1 High St', city: 'Lisbon', geo_lat: 38.7, geo_lng: -9.14 },
  organizer: [{ id: 8, organizer: 'Ana', email: 'ana@example.com' }],
  categories: [{ name: 'Jazz' }, { name: 'Live &amp; loud' }],
  ...extra,
});

const parse = (ics: string) => new ICAL.Component(ICAL.parse(ics));
const vevents = (ics: string) => parse(ics).getAllSubcomponents('vevent');
const one = (ics: string) => {
  const [v] = vevents(ics);
  if (!v) throw new Error('no VEVENT');
  return v;
};

describe('renderCalendar', () => {
  it('writes the calendar properties subscribers read', async () => {
    const ics = await renderCalendar([event()], info);
    const cal = parse(ics);
    expect(cal.getFirstPropertyValue('version')).toBe('2.0');
    expect(String(cal.getFirstPropertyValue('prodid'))).toContain('calendar-gateway');
    expect(cal.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    // ical.js reads NAME (RFC 7986) and X- properties raw; calendar apps read both as TEXT, escaped.
    expect(ics).toContain('\r\nNAME:Jazz\\; Blues\\, and \\\\ more\r\n');
    expect(ics).toContain('\r\nX-WR-CALNAME:Jazz\\; Blues\\, and \\\\ more\r\n');
    expect(String(cal.getFirstPropertyValue('refresh-interval'))).toBe('PT5M');
    expect(String(cal.getFirstPropertyValue('x-published-ttl'))).toBe('PT5M');
  });

  it('escapes TEXT and carries the title, plain description, URL, place, organizer and categories', async () => {
    const v = one(await renderCalendar([event()], info));
    expect(v.getFirstPropertyValue('summary')).toBe('Trio “Live”; 2, 3 \\ 4');
    expect(v.getFirstPropertyValue('description')).toBe('First.\n\nSecond & last.');
    expect(v.getFirstPropertyValue('url')).toBe('https://example.com/event/trio/');
    expect(v.getFirstPropertyValue('location')).toBe('Roof Garden, 1 High St, Lisbon');
    expect(v.getFirstPropertyValue('geo')).toEqual([38.7, -9.14]);
    const org = v.getFirstProperty('organizer');
    expect([org?.getParameter('cn'), org?.getFirstValue()]).toEqual(['Ana', 'mailto:ana@example.com']);
    expect(v.getAllProperties('categories').flatMap((p) => p.getValues())).toEqual(['Jazz', 'Live & loud']);
  });

  it.each([
    ['<p>First line.<br />\nSecond line.</p>', 'First line.\nSecond line.'],
    ['<p>One.</p>\n\n<p>Two.</p>', 'One.\n\nTwo.'],
    [
      '<!-- wp:list --><ul><li>Bring a chair</li><li>Caf&eacute; open</li></ul><!-- /wp:list -->',
      '- Bring a chair\n- Café open',
    ],
  ])('keeps the line breaks of %j in DESCRIPTION, read back by ical.js and node-ical', async (html, want) => {
    const ics = await renderCalendar([event({ description: html })], info);
    // TEXT's escaped line break on the wire, never a space or a raw newline.
    const line = ics.split('\r\n').find((l) => l.startsWith('DESCRIPTION:'));
    expect(line).toBe(`DESCRIPTION:${want.replace(/\n/g, '\\n')}`);
    expect(one(ics).getFirstPropertyValue('description')).toBe(want);
    const parsed = Object.values(nodeIcal.sync.parseICS(ics)).find((c) => c?.type === 'VEVENT');
    expect(parsed && 'description' in parsed ? String(parsed.description) : undefined).toBe(want);
  });

  it('sends times in the event zone with a VTIMEZONE that puts them at the right instant', async () => {
    const ics = await renderCalendar([event()], info);
    expect(ics).toContain('DTSTART;TZID=Europe/Madrid:20270612T200000');
    const cal = parse(ics);
    const zone = cal.getFirstSubcomponent('vtimezone');
    expect(zone?.getFirstPropertyValue('tzid')).toBe('Europe/Madrid');
    if (zone) ICAL.TimezoneService.register(zone);
    const start = cal.getFirstSubcomponent('vevent')?.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect(start.toJSDate().toISOString()).toBe('2027-06-12T18:00:00.000Z');
  });

  it('sends a zone given as a UTC offset as UTC times', async () => {
    const v = one(await renderCalendar([event({ timezone: 'UTC+2' })], info));
    const start = v.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect([start.zone?.tzid, start.toString()]).toEqual(['UTC', '2027-06-12T18:00:00Z']);
  });

  it('sends an all-day event as dates with an exclusive end', async () => {
    const ics = await renderCalendar(
      [event({ all_day: true, start_date: '2027-06-12 00:00:00', end_date: '2027-06-13 23:59:59' })],
      info,
    );
    expect(ics).toContain('DTSTART;VALUE=DATE:20270612');
    expect(ics).toContain('DTEND;VALUE=DATE:20270614');
    const start = one(ics).getFirstPropertyValue('dtstart') as ICAL.Time;
    expect(start.isDate).toBe(true);
  });

  it('keeps the UID when the event is renamed or rescheduled, and raises SEQUENCE with its change', async () => {
    const before = one(await renderCalendar([event()], info));
    const after = one(
      await renderCalendar(
        [event({ title: 'Renamed', start_date: '2027-06-13 20:00:00', modified_utc: '2026-03-05 00:00:00' })],
        info,
      ),
    );
    expect(after.getFirstPropertyValue('uid')).toBe(before.getFirstPropertyValue('uid'));
    expect(Number(after.getFirstPropertyValue('sequence'))).toBeGreaterThan(
      Number(before.getFirstPropertyValue('sequence')),
    );
    expect(String(before.getFirstPropertyValue('dtstamp'))).toBe('2026-03-04T05:06:07Z');
  });

  it('gives the same bytes for the same records', async () => {
    expect(await renderCalendar([event()], info)).toBe(await renderCalendar([event()], info));
  });

  it('warms up in any zone a site may have, named or an offset, without throwing', async () => {
    for (const zone of ['Europe/Madrid', 'UTC', 'UTC+2', 'UTC-9:30', ''])
      await expect(warmRenderer(zone)).resolves.toBe(undefined);
  });

  it('gives the same text whatever its slices, and as bytes the UTF-8 of that text', async () => {
    const many = Array.from({ length: 25 }, (_, i) =>
      event({
        id: 100 + i,
        title: `Night ${i} – café`,
        start_date: `2027-06-${String(1 + i).padStart(2, '0')} 20:00:00`,
        ...(i % 3 === 0 && { timezone: 'America/New_York' }),
      }),
    );
    const whole = await renderCalendar(many, info, 1000);
    expect(vevents(whole)).toHaveLength(25);
    expect(parse(whole).getAllSubcomponents('vtimezone')).toHaveLength(2);
    for (const slice of [1, 3, 10]) expect(await renderCalendar(many, info, slice)).toBe(whole);
    expect((await renderCalendarBytes(many, info, 4)).equals(Buffer.from(whole))).toBe(true);
  });

  it.each([
    ['scheduled', 'CONFIRMED'],
    ['canceled', 'CANCELLED'],
    ['postponed', 'TENTATIVE'],
  ])('says STATUS for a %s event', async (status, want) => {
    expect(
      one(await renderCalendar([event({ event_status: status })], info)).getFirstPropertyValue('status'),
    ).toBe(want);
  });

  it('leaves out what the record blanks (a protected description) and an organizer without an address', async () => {
    const v = one(
      await renderCalendar([event({ description: '', organizer: [{ organizer: 'Ana' }] })], info),
    );
    expect(v.getFirstProperty('description')).toBeNull();
    expect(v.getFirstProperty('organizer')).toBeNull();
  });

  it('ends every line with CRLF, folds at 75 octets without splitting a character, and reads back any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 300 }), async (title) => {
        const ics = await renderCalendar([event({ title: title.replace(/[<&]/g, ' ') })], info);
        expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
        const lines = ics.slice(0, -2).split('\r\n');
        for (const line of lines) {
          expect(line).not.toMatch(/[\r\n]/);
          expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
          // A split UTF-8 sequence would have turned into a lone surrogate or a replacement character.
          expect(line.isWellFormed()).toBe(true);
        }
        const summary = one(ics).getFirstPropertyValue('summary');
        expect(summary).toBe(title.replace(/[<&]/g, ' ').replace(/\s+/g, ' ').trim());
      }),
      { seed: 20, numRuns: 200 },
    );
  });
});
