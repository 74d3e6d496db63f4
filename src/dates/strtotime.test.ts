// Differential property test: our strtotime against PHP's own (php-cli), over relative formats × bases × zones.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensurePhp, phpStrtotime } from '../../test/php/oracle.ts';
import { guard } from '../../test/slack.ts';
import { parseTime } from './parse.ts';

/**
 * A fixed seed and a size that runs in a few seconds by default, so CI checks the same cases every time;
 * `STRTOTIME_SEED=random STRTOTIME_RUNS=20000` hunts further (the seed used is printed with any difference).
 */
const SEED =
  process.env.STRTOTIME_SEED === 'random'
    ? Date.now() % 2 ** 31
    : Number(process.env.STRTOTIME_SEED ?? 20261126);
const RUNS = Number(process.env.STRTOTIME_RUNS ?? 1500);

/**
 * The zones a site or an event may be in, with the name PHP knows each by: PHP's default time zone must be an
 * identifier, so the manual offsets TEC allows are given to PHP as a zone with that fixed offset over 1970–2100.
 */
const ZONES: ReadonlyArray<readonly [ours: string, php: string]> = [
  ['UTC', 'UTC'],
  ['Europe/Madrid', 'Europe/Madrid'],
  ['America/New_York', 'America/New_York'],
  ['Asia/Kolkata', 'Asia/Kolkata'],
  ['Pacific/Chatham', 'Pacific/Chatham'],
  ['Australia/Lord_Howe', 'Australia/Lord_Howe'],
  ['UTC+5:30', 'Asia/Kolkata'],
  ['UTC-3', 'Etc/GMT+3'],
];

/** Instants worth starting from: every weekday, month ends, leap days, and the DST changes of the zones above. */
const BASES = [
  ...[23, 24, 25, 26, 27, 28, 29].map((d) => `2026-11-${d}T10:30:00Z`),
  '2027-01-31T23:30:00Z',
  '2027-02-28T12:00:00Z',
  '2028-02-29T05:00:00Z',
  '2027-04-30T22:00:00Z',
  '2027-12-31T23:59:59Z',
  '2027-03-28T00:30:00Z', // Madrid springs forward at 01:00Z
  '2027-03-28T01:30:00Z',
  '2027-10-31T00:30:00Z', // Madrid falls back at 01:00Z
  '2027-10-31T01:30:00Z',
  '2027-03-14T06:30:00Z', // New York springs forward at 07:00Z
  '2027-11-07T05:30:00Z', // New York falls back at 06:00Z
  '2027-11-07T06:30:00Z',
  '2027-04-03T14:30:00Z', // Lord Howe and Chatham leave DST on 4 April
  '2027-10-02T15:30:00Z', // Lord Howe enters DST on 3 October
  '2027-09-25T13:30:00Z', // Chatham enters DST on 26 September
].map((iso) => Date.parse(iso) / 1000);

const base = fc.oneof(
  fc.constantFrom(...BASES),
  fc.constantFrom(...BASES).chain((b) => fc.integer({ min: -2 * 86400, max: 2 * 86400 }).map((s) => b + s)),
  fc.integer({ min: Date.parse('2000-01-01Z') / 1000, max: Date.parse('2040-01-01Z') / 1000 }),
);

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const weekday = fc.oneof(
  fc.constantFrom(...WEEKDAYS),
  fc.constantFrom(...WEEKDAYS).map((d) => d.slice(0, 3)),
);
const MONTHS = ['january', 'february', 'march', 'june', 'september', 'december'];
const month = fc.oneof(fc.constantFrom(...MONTHS), fc.constantFrom('jan', 'feb', 'sept', 'dec'));
const unit = fc.constantFrom(
  'sec',
  'second',
  'seconds',
  'min',
  'minutes',
  'hour',
  'hours',
  'day',
  'days',
  'week',
  'weeks',
  'fortnight',
  'month',
  'months',
  'year',
  'years',
  'weekday',
  'weekdays',
);
const year = fc.integer({ min: 1999, max: 2031 }).map(String);
const relText = fc.constantFrom('next', 'last', 'previous', 'this', 'first', 'second', 'third');

const numbered = fc
  .tuple(
    fc.constantFrom('', '+', '-'),
    fc.integer({ min: 0, max: 40 }),
    fc.constantFrom('', ' '),
    fc.oneof(unit, weekday),
  )
  .map(([sign, n, gap, u]) => `${sign}${n}${gap}${u}`);
const relative = fc.oneof(
  numbered,
  numbered.map((r) => `${r} ago`),
  fc.tuple(relText, fc.oneof(unit, weekday, fc.constant('week'))).map(([r, u]) => `${r} ${u}`),
  weekday,
  fc.tuple(weekday, fc.constantFrom('next', 'last', 'this')).map(([d, r]) => `${d} ${r} week`),
);
const monthRef = fc.oneof(
  fc.constantFrom('next month', 'last month', 'this month'),
  fc.tuple(month, year).map(([m, y]) => `${m} ${y}`),
  month,
);
const dayOf = fc.oneof(
  fc.tuple(fc.constantFrom('first', 'last'), monthRef).map(([fl, m]) => `${fl} day of ${m}`),
  fc.constantFrom('first day of', 'last day of'),
  fc
    .tuple(fc.constantFrom('first', 'second', 'third', 'fourth', 'last', 'next'), weekday, monthRef)
    .map(([n, d, m]) => `${n} ${d} of ${m}`),
);
const special = fc.constantFrom('tomorrow', 'yesterday', 'today', 'midnight', 'noon', 'now');
const time = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.constantFrom('am', 'pm', ' am', ' PM', 'a.m.'))
    .map(([h, m]) => `${h}${m}`),
  fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom('am', 'pm'))
    .map(([h, i, m]) => `${h}:${String(i).padStart(2, '0')}${m}`),
  fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom('', 'T', 't'))
    .map(([h, i, t]) => `${t}${String(h).padStart(2, '0')}:${String(i).padStart(2, '0')}`),
  fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, i, s]) => [h, i, s].map((n) => String(n).padStart(2, '0')).join(':')),
);
const pad = (n: number) => String(n).padStart(2, '0');
const isoDate = fc
  .tuple(
    fc.integer({ min: 1999, max: 2031 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 31 }),
  )
  .map(([y, m, d]) => `${y}-${pad(m)}-${pad(d)}`);
const zoneSuffix = fc.constantFrom(
  'Z',
  '+02:00',
  '-05:00',
  '+0530',
  ' UTC',
  ' GMT',
  ' EST',
  ' CEST',
  ' Europe/Paris',
);
const absolute = fc.oneof(
  isoDate,
  fc
    .tuple(isoDate, fc.constantFrom(' ', 'T'), time)
    .map(([d, sep, t]) => `${d}${sep}${t.replace(/^[Tt]/, '')}`),
  fc.tuple(isoDate, time, zoneSuffix).map(([d, t, z]) => `${d}T${t.replace(/^[Tt]/, '')}${z}`),
  fc
    .tuple(month, fc.integer({ min: 1, max: 31 }), fc.option(year))
    .map(([m, d, y]) => `${m} ${d}${y ? ` ${y}` : ''}`),
  fc.tuple(fc.integer({ min: 1, max: 31 }), month, year).map(([d, m, y]) => `${d} ${m} ${y}`),
  fc.integer({ min: -1e9, max: 4e9 }).map((n) => `@${n}`),
);
/** Other shapes PHP reads (and some it rejects), and loose characters that make the scanner split tokens oddly. */
const other = fc.oneof(
  fc.constantFrom(
    'back of 7pm',
    'front of 19',
    '6/12/2027',
    '6/12',
    '12.06.2027',
    '12.06.27',
    '2027/06/12',
    '20270612',
    '2027-W05-3',
    '2027W05',
    '2027.163',
    'June 12th',
    '12th june',
    'Sat, 12 Jun 2027 10:00:00 +0200',
    '2027-06-12 10:00:00.5',
    '2027-06-12T10:00:00.123456Z',
    '10am EST',
    'Europe/Paris',
    '(CEST)',
    'GMT+2',
    'soon',
    'whenever',
    'next blah',
    '25:00',
    '24:00',
    '2027-02-30',
    '2027-13-01',
    '0000-00-00 00:00:00',
    '1 fortnight',
    '+-1 day',
    '--2 days',
    'eighth day',
    'twelfth month',
    '10 September 2000',
    'Sept 2027',
    '2027 June',
    'jun-12-2027',
    '2027-jun-12',
    'IV',
    '12-IV-2027',
    '1/2/3',
    '@1.5',
    '@-1.5',
    '10:00:00 PM',
    '12am',
    '12:30pm',
    '0:30',
    'T1030',
    '103045',
    '1030',
    // Wall clocks in the gaps and repeated hours of the zones' DST changes.
    '2027-03-28 02:30',
    '2027-10-31 02:30',
    '2027-03-14 02:30',
    '2027-11-07 01:30',
    '2027-04-04 01:45',
    '2027-10-03 02:15',
    '2027-04-04 02:50',
    '2027-09-26 03:15',
    '2027-10-31 02:30 Europe/Paris',
    '2027-11-07 01:30 America/New_York',
    '2027-04-04 01:45 Australia/Lord_Howe',
    // Zone names: ICU knows Java's `MIT` and `AET`, PHP does not; PHP looks names up in any case.
    '2:52am mit',
    'AeT',
    '10:00 Cuba',
    '2027-01-01 10:00 Europe/PARIS',
  ),
  fc
    .array(fc.constantFrom(...'abdehimnorstuwy0123456789 +-:/.@,TWZGM()'.split('')), {
      minLength: 1,
      maxLength: 10,
    })
    .map((cs) => cs.join('')),
);
/** Words, numbers and separators run together in any order, to reach the scanner's less travelled paths. */
const soup = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ...['next', 'last', 'this', 'of', 'day', 'week', 'mon', 'sat', 'june', 'jan', 'am', 'pm', 't', 'ago'],
        ...['noon', 'first', 'third', 'weekday', 'Z', 'EST', 'UTC', 'GMT', 'CEST', 'IV', 'st', 'th', 'W'],
        ...['@', '+', '-', ':', '/', '.', ' ', ',', '  '],
      ),
      fc.nat(99999).map(String),
      fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0')),
    ),
    { minLength: 1, maxLength: 7 },
  )
  .map((items) => items.join(''));
const part = fc.oneof(
  { arbitrary: soup, weight: 1 },
  { arbitrary: relative, weight: 4 },
  { arbitrary: other, weight: 2 },
  { arbitrary: dayOf, weight: 2 },
  { arbitrary: special, weight: 2 },
  { arbitrary: time, weight: 2 },
  { arbitrary: absolute, weight: 2 },
);
/** Up to three parts (`next wednesday 4pm`, `tomorrow noon`, `monday next week`), in any case, spaced loosely. */
const text = fc
  .tuple(
    fc.array(part, { minLength: 1, maxLength: 3 }),
    fc.constantFrom(' ', '  ', '\t'),
    fc.constantFrom('lower', 'upper', 'title', 'as is'),
    fc.boolean(),
  )
  .map(([parts, gap, casing, padded]) => {
    let s = parts.join(gap);
    if (casing === 'lower') s = s.toLowerCase();
    else if (casing === 'upper') s = s.toUpperCase();
    else if (casing === 'title') s = s.replace(/\b[a-z]/g, (c) => c.toUpperCase());
    return padded ? ` ${s} ` : s;
  });

// Purely numeric values are TEC's Unix timestamps (`is_numeric`), deliberately not strtotime's reading of them.
const NUMERIC = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/** Seconds since the epoch as our parser reads `value` in `zone` at `now`, or false as PHP says it. */
const ours = (value: string, now: number, zone: string): number | false => {
  const dt = parseTime(value, zone, new Date(now * 1000));
  return dt === null ? false : Math.floor(dt.toSeconds());
};

/** JavaScript dates end at ±8.64e15 ms, so our port answers false where PHP goes on (`20270612 sunday` is 20270612 Sundays ahead). */
const JS_DATE_LIMIT = 8.64e12;
/**
 * Answers we do not compare: instants JavaScript cannot hold, and instants before 1970 for the manual offsets, whose
 * stand-in zone on the PHP side had another offset then (Asia/Kolkata was +05:21:10 before 1942).
 */
const outOfScope = (php: number | false, standIn: boolean) =>
  php !== false && (Math.abs(php) > JS_DATE_LIMIT || (standIn && php < 0));

const show = (seconds: number | false) => {
  if (seconds === false) return 'false';
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : `${seconds} (${date.toISOString()})`;
};

describe('strtotime compared with PHP', () => {
  beforeAll(ensurePhp, guard(600_000));

  it('reads "next wednesday 4pm" on a Wednesday as the next week\'s Wednesday, as PHP does', () => {
    const wednesday = Date.parse('2026-11-25T10:00:00Z') / 1000;
    expect(ours('next wednesday 4pm', wednesday, 'UTC')).toBe(Date.parse('2026-12-02T16:00:00Z') / 1000);
    expect(phpStrtotime([['next wednesday 4pm', wednesday, 'UTC']])).toEqual([
      Date.parse('2026-12-02T16:00:00Z') / 1000,
    ]);
  });

  it(
    `gives PHP's answer for every generated text, base and zone (seed ${SEED}, ${RUNS} cases)`,
    () => {
      const cases = fc
        .sample(fc.tuple(text, base, fc.constantFrom(...ZONES)), { numRuns: RUNS, seed: SEED })
        .filter(([value]) => !NUMERIC.test(value));
      const php = phpStrtotime(cases.map(([value, now, [, phpZone]]) => [value, now, phpZone] as const));
      const differences = cases.flatMap(([value, now, [zone, phpZone]], i) => {
        const mine = ours(value, now, zone);
        return mine === php[i] || outOfScope(php[i], zone !== phpZone)
          ? []
          : [
              `${JSON.stringify(value)} at ${new Date(now * 1000).toISOString()} in ${zone}: PHP ${show(php[i])}, ours ${show(mine)}`,
            ];
      });
      if (process.env.STRTOTIME_RUNS !== undefined || differences.length > 0) {
        const rejected = php.filter((answer) => answer === false).length;
        process.stderr.write(
          `seed ${SEED}: ${cases.length} cases, ${rejected} false in PHP, ${differences.length} differ\n`,
        );
      }
      if (differences.length > 0)
        console.log(`${differences.length} of ${cases.length} differ:\n${differences.join('\n')}`);
      expect(differences.slice(0, 20)).toEqual([]);
    },
    Math.max(30_000, RUNS * 5),
  );
});
