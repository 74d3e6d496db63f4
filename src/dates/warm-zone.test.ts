import { describe, expect, it } from 'vitest';
import { timezoneAbbr, zoneWarmUps } from './zones.ts';

const warmZone = (tz: string, now: Date) => {
  for (const step of zoneWarmUps(tz, now)) step();
};

describe('zoneWarmUps', () => {
  it('leaves the answers as they were, and a zone Intl does not know to the write that names it', () => {
    const now = new Date('2026-11-29T12:00:00Z');
    expect(() => warmZone('Not/AZone', now)).not.toThrow();
    warmZone('America/New_York', now);
    expect(timezoneAbbr('2027-01-15 12:00:00', 'America/New_York')).toBe('EST');
    expect(timezoneAbbr('2027-07-15 12:00:00', 'America/New_York')).toBe('EDT');
  });
});
