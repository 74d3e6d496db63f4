import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type ArgDef, type ArgsShape, MAX_CHARS, positiveInt, timeValue } from '../contract/args.ts';
import { eventRoutes, eventWriteArgs, listEventsArgs } from '../contract/events.ts';
import { allContracts } from '../contract/index.ts';
import { isTime } from '../dates/parse.ts';
import { FORMATS } from '../formats.ts';
import { maxLengthOf, parseArgs as parseWith } from './parse-args.ts';

// The date parser, watched: a value refused for its length must never reach it.
vi.mock('../dates/parse.ts', async (actual) => {
  const real = await actual<typeof import('../dates/parse.ts')>();
  return { ...real, isTime: vi.fn(real.isTime) };
});

/** The parser with the gateway's format checks, as the parse stage calls it. */
const parseArgs = <S extends ArgsShape>(shape: S, raw: Record<string, unknown>) =>
  parseWith(shape, raw, FORMATS);

const d = { en: '', es: '' };

describe('parseArgs', () => {
  const shape = {
    id: { type: 'integer', required: true, description: d, schema: positiveInt } satisfies ArgDef<number>,
    page: { type: 'integer', default: 1, description: d, schema: positiveInt } satisfies ArgDef<number>,
    q: { type: 'string', description: d, schema: z.string() } satisfies ArgDef<string>,
  };

  it('reports missing required arguments before anything else', () => {
    expect(parseArgs(shape, { page: 'x' })).toEqual({ ok: false, missing: ['id'] });
  });

  it('reports every invalid argument with its name and why it was refused', () => {
    const r = parseArgs(shape, { id: '0', page: 'x' });
    expect(r).toEqual({
      ok: false,
      invalid: [
        { name: 'id', message: 'id must be a whole number greater than 0.' },
        { name: 'page', message: 'page must be a whole number greater than 0.' },
      ],
    });
  });

  it('fills defaults, ignores unknown parameters and treats null as absent', () => {
    expect(parseArgs(shape, { id: '4', q: null, other: 'x' })).toEqual({
      ok: true,
      args: { id: 4, page: 1 },
    });
  });

  it('caps per_page at 50 silently, as TEC does', () => {
    const r = parseArgs(listEventsArgs, { per_page: '500' });
    expect(r.ok && r.args.per_page).toBe(50);
  });

  it('never throws on arbitrary query-shaped input to the events list', () => {
    const value = fc.oneof(
      fc.string(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string(), fc.string()),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...Object.keys(listEventsArgs), 'x'), value), (raw) => {
        const r = parseArgs(listEventsArgs, raw);
        expect(typeof r.ok).toBe('boolean');
      }),
    );
  });

  it('checks a named format after the schema, with the reason the format gives', () => {
    const shape = {
      at: { type: 'string', description: d, schema: timeValue, format: 'time' } satisfies ArgDef<string>,
    };
    expect(parseArgs(shape, { at: 'tomorrow 9am' })).toEqual({ ok: true, args: { at: 'tomorrow 9am' } });
    expect(parseArgs(shape, { at: 'the day after never' })).toEqual({
      ok: false,
      invalid: [{ name: 'at', message: expect.stringMatching(/^at must be a date or time PHP's strtotime/) }],
    });
  });

  it('checks the formats of the event write fields: time, time zone and image', () => {
    const args = eventWriteArgs(false);
    const bad = parseArgs(args, { start_date: 'nope', timezone: 'Mars/Olympus', image: 'not a url' });
    // In record order, as the write arguments come.
    expect(bad.ok === false && 'invalid' in bad && bad.invalid.map((i) => i.name)).toEqual([
      'image',
      'start_date',
      'timezone',
    ]);
    expect(parseArgs(args, { start_date: '2030-01-31 18:00', timezone: 'UTC+2', image: '12' }).ok).toBe(true);
    expect(parseArgs(args, { timezone: '', image: '' }).ok).toBe(true);
  });
});

describe('parseArgs: the length of strings', () => {
  beforeEach(() => {
    vi.mocked(isTime).mockClear();
  });
  const tooLong = (name: string, max: number) => ({
    ok: false,
    invalid: [{ name, message: `${name} must be at most ${max} characters long.` }],
  });

  it('refuses a 1 MB date naming it, without the date parser ever seeing it', () => {
    const days = '+1 day '.repeat(140_000);
    expect(parseArgs(eventWriteArgs(true), { title: 't', start_date: days, end_date: '2030-01-01' })).toEqual(
      tooLong('start_date', MAX_CHARS.time),
    );
    expect(parseArgs(listEventsArgs, { start_date: days.slice(0, 13_000) })).toEqual(
      tooLong('start_date', MAX_CHARS.time),
    );
    expect(vi.mocked(isTime).mock.calls.every(([v]) => String(v).length <= MAX_CHARS.time)).toBe(true);
  });

  it('still reads a date as long as its bound', () => {
    const at = `2030-01-31 18:00${' '.repeat(MAX_CHARS.time - 16)}`;
    expect(parseArgs(listEventsArgs, { start_date: at }).ok).toBe(true);
    expect(isTime).toHaveBeenCalledWith(at, expect.any(Date));
  });

  it.each([
    ['a search', eventRoutes.list.args, 'search', MAX_CHARS.search],
    ['a time zone', eventWriteArgs(false), 'timezone', MAX_CHARS.timezone],
    ['an image URL', eventWriteArgs(false), 'image', MAX_CHARS.image],
    ['a slug in the path', eventRoutes.readBySlug.args, 'slug', MAX_CHARS.slug],
    ['a date in a list of them', listEventsArgs, 'end_date', MAX_CHARS.time],
  ])('refuses %s one character over its bound, naming it', (_what, shape, name, max) => {
    const value = name === 'end_date' ? ['x'.repeat(max + 1)] : 'x'.repeat(max + 1);
    expect(parseArgs(shape, { slug: 's', [name]: value })).toEqual(tooLong(name, max));
  });

  it('bounds every date, time zone, image, path and search argument of every route below the body limit', () => {
    for (const route of allContracts()) {
      for (const [name, def] of Object.entries(route.args)) {
        const max = maxLengthOf(def as ArgDef);
        expect(max, `${route.id} ${name}`).toBeLessThanOrEqual(MAX_CHARS.text);
        if ((def as ArgDef).format || (def as ArgDef).in === 'path' || name === 'search')
          expect(max, `${route.id} ${name}`).toBeLessThan(MAX_CHARS.text);
      }
    }
  });
});
