// Checks that the sample calendar has the promised variety and stays internally consistent for both mappings.
import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { type Mapping, mappingSchema, metaKeysOf } from '../src/mapping/schema.ts';
import { buildSeed, mulberry32, SAMPLE_PASSWORD_PROTECTED } from './seed-data.ts';

const load = (name: string): Mapping =>
  mappingSchema.parse(JSON.parse(readFileSync(new URL(`../mappings/${name}.json`, import.meta.url), 'utf8')));
const NOW = new Date('2026-03-10T15:00:00Z');

describe.each(['tec', 'custom'])('buildSeed with the %s mapping', (name) => {
  const mapping = load(name);
  const seed = buildSeed(mapping, NOW);
  const events = seed.posts.filter((p) => p.kind === 'event');
  const ef = mapping.event.fields;
  const metaKey = (f: keyof typeof ef): string => {
    const src = ef[f];
    if (!src || !('meta' in src)) throw new Error(`${String(f)} is not meta`);
    return src.meta;
  };
  const startKey = metaKey('start_date');
  const endKey = metaKey('end_date');

  it('is deterministic for the same now', () => {
    expect(buildSeed(mapping, NOW)).toEqual(seed);
  });

  it('has the five roles, 15 venues, 10 organizers and at least 220 events', () => {
    expect(seed.users.map((u) => u.role).sort()).toEqual([
      'administrator',
      'author',
      'contributor',
      'editor',
      'subscriber',
    ]);
    expect(seed.posts.filter((p) => p.kind === 'venue')).toHaveLength(15);
    expect(seed.posts.filter((p) => p.kind === 'organizer')).toHaveLength(10);
    expect(events.length).toBeGreaterThanOrEqual(220);
  });

  it('has every status, password-protected events and a contributor draft', () => {
    const count = (s: string) => events.filter((e) => e.status === s).length;
    expect(count('draft')).toBeGreaterThanOrEqual(3);
    expect(count('pending')).toBeGreaterThanOrEqual(3);
    expect(count('private')).toBeGreaterThanOrEqual(2);
    expect(count('future')).toBeGreaterThanOrEqual(3);
    expect(events.filter((e) => e.password === SAMPLE_PASSWORD_PROTECTED).length).toBeGreaterThanOrEqual(3);
    expect(events.some((e) => e.status === 'draft' && e.author === 'contributor')).toBe(true);
    const venues = seed.posts.filter((p) => p.kind === 'venue');
    expect(venues.filter((v) => v.status === 'draft')).toHaveLength(1);
    expect(venues.filter((v) => v.password)).toHaveLength(1);
  });

  it('dates future posts in the future and published ones in the past', () => {
    const nowLocal = DateTime.fromJSDate(NOW, { zone: seed.timezone }).toFormat('yyyy-MM-dd HH:mm:ss');
    for (const p of seed.posts) {
      if (p.status === 'future') expect(p.date > nowLocal).toBe(true);
      else expect(p.date < nowLocal).toBe(true);
    }
  });

  it('ends every event at or after its start, with some in the past and some months ahead', () => {
    for (const e of events) expect(String(e.meta[endKey]) >= String(e.meta[startKey])).toBe(true);
    const starts = events.map((e) => String(e.meta[startKey])).sort();
    expect(String(starts[0]) < '2026-03-01').toBe(true);
    expect(String(starts.at(-1)) > '2026-08-15').toBe(true);
  });

  it('stores all-day events from 00:00:00 to 23:59:59 and uses several timezones', () => {
    const allDayKey = metaKey('all_day');
    const allDay = events.filter((e) => e.meta[allDayKey] === 'yes' || e.meta[allDayKey] === '1');
    expect(allDay.length).toBeGreaterThan(5);
    for (const e of allDay) {
      expect(String(e.meta[startKey]).endsWith(' 00:00:00')).toBe(true);
      expect(String(e.meta[endKey]).endsWith(' 23:59:59')).toBe(true);
    }
    const zones = new Set(events.map((e) => e.meta[metaKey('timezone')]));
    expect([...zones].sort()).toEqual(['America/Los_Angeles', 'America/New_York', 'Europe/Madrid', 'UTC']);
  });

  it('resolves every link to a seed post of the right kind that comes earlier', () => {
    const seen = new Map<string, string>();
    for (const p of seed.posts) {
      for (const [key, targets] of Object.entries(p.links)) {
        const kind = key === metaKey('venue') ? 'venue' : 'organizer';
        for (const t of targets) expect(seen.get(t)).toBe(kind);
      }
      seen.set(p.key, p.kind);
    }
    expect(events.some((e) => (e.links[metaKey('organizer')]?.length ?? 0) === 2)).toBe(true);
    expect(events.some((e) => !e.links[metaKey('venue')])).toBe(true);
  });

  it('uses only existing terms and only meta keys the mapping declares', () => {
    const keys = metaKeysOf(mapping);
    for (const p of seed.posts) {
      for (const [base, slugs] of Object.entries(p.terms)) {
        const known = new Set(seed.taxonomies[base]?.map((t) => t.slug));
        for (const s of slugs) expect(known.has(s)).toBe(true);
      }
      for (const k of Object.keys(p.meta)) expect(keys.get(p.postType)?.has(k)).toBe(true);
    }
    for (const terms of Object.values(seed.taxonomies)) {
      const before = new Set<string>();
      for (const t of terms) {
        if (t.parent) expect(before.has(t.parent)).toBe(true);
        before.add(t.slug);
      }
    }
  });

  it('gives every post a unique key equal to its slug', () => {
    for (const p of seed.posts) expect(p.key).toBe(p.slug);
    expect(new Set(seed.posts.map((p) => p.key)).size).toBe(seed.posts.length);
  });

  it('writes UTC copies that match the wall clock in the event timezone', () => {
    if (!ef.utc_start_date) return;
    const utcKey = metaKey('utc_start_date');
    for (const e of events) {
      const local = DateTime.fromFormat(String(e.meta[startKey]), 'yyyy-MM-dd HH:mm:ss', {
        zone: String(e.meta[metaKey('timezone')]),
      });
      expect(local.toUTC().toFormat('yyyy-MM-dd HH:mm:ss')).toBe(e.meta[utcKey]);
    }
  });
});

describe('mulberry32', () => {
  it('returns the same sequence for the same seed, in [0, 1)', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    for (let i = 0; i < 100; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});
