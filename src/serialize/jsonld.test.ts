// schema.org Event from an event record: status and attendance mode follow the record, never a constant.
import { describe, expect, it } from 'vitest';
import { jsonLdEvent } from './jsonld.ts';

const event = (extra: Record<string, unknown>) => ({
  title: 'Gig',
  url: 'https://example.com/event/gig/',
  start_date: '2027-06-12 20:00:00',
  end_date: '2027-06-12 23:00:00',
  venue: [],
  organizer: [],
  ...extra,
});
const venue = { id: 7, venue: 'Hall', address: '1 High St', city: 'Lisbon' };

describe('the JSON-LD of an event', () => {
  it.each([
    ['scheduled', 'https://schema.org/EventScheduled'],
    ['canceled', 'https://schema.org/EventCancelled'],
    ['postponed', 'https://schema.org/EventPostponed'],
    [undefined, 'https://schema.org/EventScheduled'],
  ])('says eventStatus for %s', (status, want) => {
    expect(jsonLdEvent(event({ event_status: status }), 'Europe/Lisbon').eventStatus).toBe(want);
  });

  it('claims offline attendance for an event at a venue, and no mode without one', () => {
    expect(jsonLdEvent(event({ venue }), 'Europe/Lisbon').eventAttendanceMode).toBe(
      'https://schema.org/OfflineEventAttendanceMode',
    );
    expect(jsonLdEvent(event({}), 'Europe/Lisbon')).not.toHaveProperty('eventAttendanceMode');
  });

  it('describes the event as text with its paragraphs and line breaks, entities decoded (excerpt first)', () => {
    const html = '<p>First line.<br />\nSecond line.</p>\n<p>Caf&eacute;.</p>';
    expect(jsonLdEvent(event({ description: html }), 'Europe/Lisbon').description).toBe(
      'First line.\nSecond line.\n\nCafé.',
    );
    expect(
      jsonLdEvent(event({ description: html, excerpt: '<p>Short.</p>' }), 'Europe/Lisbon').description,
    ).toBe('Short.');
  });
});
