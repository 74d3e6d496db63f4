import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ArgDef, type ArgsShape, positiveInt, timeValue } from '../contract/args.ts';
import { eventWriteArgs, listEventsArgs } from '../contract/events.ts';
import { FORMATS } from '../formats.ts';
import { parseArgs as parseWith } from './parse-args.ts';

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
