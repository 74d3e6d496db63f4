import { describe, expect, it } from 'vitest';
import { Races } from './races.ts';

describe('Races', () => {
  it('tells a load which drops of its tags came after it started, hard and soft apart', () => {
    const r = new Races();
    const started = r.seq;
    expect(r.hard(['list:event'], started)).toBe(false);
    r.drop(['event:1'], true);
    expect(r.soft(['list:event', 'event:1'], started)).toBe(true);
    expect(r.hard(['list:event', 'event:1'], started)).toBe(false);
    r.drop(['event:2'], false);
    expect(r.hard(['event:2'], started)).toBe(true);
    // A load started after both drops raced neither.
    const later = r.seq;
    expect(r.hard(['event:2'], later) || r.soft(['event:1'], later)).toBe(false);
  });

  it('counts every load running at a purge as raced, hard and soft', () => {
    const r = new Races();
    const started = r.seq;
    r.purge();
    r.drop(['other'], false);
    expect(r.hard(['anything'], started)).toBe(true);
    expect(r.soft(['anything'], started)).toBe(true);
    expect(r.hard(['anything'], r.seq)).toBe(false);
  });
});
