// An event's HTML description as text people read: the iCalendar feeds (read back by ical.js and node-ical) and the
// JSON-LD keep its paragraphs and line breaks, and decode its entities.
import ICAL from 'ical.js';
import nodeIcal from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openTarget, type Target } from '../harness.ts';
import { NS } from './cache-support.ts';
import { type EventRecord, Fixtures, type Json, monthOf, token } from './fixtures.ts';

const tok = token();
const day = monthOf(2036, 11);
let t: Target;
let fx: Fixtures;
let event: EventRecord;

const HTML = '<p>First line.<br />\nSecond line.</p>\n<p>Caf&eacute; &amp; terrace.</p>';
const TEXT = 'First line.\nSecond line.\n\nCafé & terrace.';

async function ics(path: string): Promise<string> {
  const res = await fetch(`${t.gateway.url}${NS}${path}`);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return text;
}

/** The DESCRIPTION of this file's event as each parser reads it, and as the line on the wire. */
function descriptions(text: string): { wire: string; icaljs: unknown; nodeIcal: unknown } {
  const unfolded = text.replace(/\r\n[ \t]/g, '');
  const uid = `event-${event.id}@`;
  const block = unfolded.split('BEGIN:VEVENT').find((b) => b.includes(`UID:${uid}`)) ?? '';
  const wire = block.split('\r\n').find((l) => l.startsWith('DESCRIPTION')) ?? '';
  const vevent = new ICAL.Component(ICAL.parse(text))
    .getAllSubcomponents('vevent')
    .find((v) => String(v.getFirstPropertyValue('uid')).startsWith(uid));
  const parsed = Object.values(nodeIcal.sync.parseICS(text)).find(
    (c) => c?.type === 'VEVENT' && String(c.uid).startsWith(uid),
  );
  return {
    wire,
    icaljs: vevent?.getFirstPropertyValue('description'),
    nodeIcal: parsed && 'description' in parsed ? String(parsed.description) : undefined,
  };
}

beforeAll(async () => {
  t = await openTarget();
  fx = new Fixtures(t);
  event = await fx.event({
    title: `Lines ${tok}`,
    description: HTML,
    start_date: day(2),
    end_date: day(2, '12:00'),
  });
});

afterAll(async () => {
  await fx?.cleanup();
  await t?.close();
});

describe('an HTML description as text', () => {
  it.each([
    ['the event feed', () => `/events/${event.id}.ics`],
    ['the list feed', () => `/events.ics?start_date=${day(1, '00:00:00')}&end_date=${day(28, '23:59:59')}`],
  ])(
    '%s keeps its paragraphs and line breaks as escaped \\n, read back by ical.js and node-ical',
    async (_n, path) => {
      const d = descriptions(await ics(path()));
      expect(d.wire).toBe(`DESCRIPTION:${TEXT.replace(/\n/g, '\\n')}`);
      expect(d.icaljs).toBe(TEXT);
      expect(d.nodeIcal).toBe(TEXT);
    },
  );

  it("the single read's JSON-LD description keeps them too", async () => {
    const res = await call(t, 'GET', `/events/${event.id}`);
    expect(res.status).toBe(200);
    expect((res.body.json_ld as Json).description).toBe(TEXT);
  });
});
