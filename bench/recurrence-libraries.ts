// `node bench/recurrence-libraries.ts`: rrule-temporal (src/recurrence/expand.ts) against ical.js's expansion on the
// same random series (src/recurrence/test-support.ts: DST gaps and folds, all-day, Kolkata, Lord Howe, Auckland):
// how many disagree, of what kind, and what each costs per series for a 24-month window (median of 3 rounds).
// Env: BENCH_RULES (2000), BENCH_SEED (31), BENCH_SHAPES (`product`: the writers' and the panel's shapes; `any`:
// every part of the canonical subset combined at random).
import fc from 'fast-check';
import { Expander, readRuleText, type SeriesTimes, type StoredRule } from '../src/recurrence/expand.ts';
import { expandWithIcalJs, seriesArb, seriesCalendar, synchronised } from '../src/recurrence/test-support.ts';
import { median } from './lib.ts';

const RULES = Number(process.env.BENCH_RULES ?? 2000);
const SEED = Number(process.env.BENCH_SEED ?? 31);
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

const SHAPES = (process.env.BENCH_SHAPES ?? 'product') as 'product' | 'any';
// Each series starts at its rule's first occurrence (RFC 5545 leaves any other DTSTART undefined), as writers make it.
const samples = fc
  .sample(seriesArb(SHAPES), { numRuns: RULES, seed: SEED })
  .map(({ rule, times }) => ({ rule, times: synchronised(rule, times) ?? times }));

type Kind =
  | 'agree'
  | 'unsynchronised DTSTART'
  | 'RDATE repeated by ical.js'
  | 'ical.js refuses the rule'
  | 'other';
const kinds = new Map<Kind, number>();
const refused: string[] = [];
const examples: Array<{ rule: StoredRule; times: SeriesTimes; ours: string[]; theirs: string[] }> = [];

for (const { rule, times } of samples) {
  const expander = Expander.of(rule, times);
  if (!expander) continue;
  const from = expander.first.ms - 2 * DAY;
  const to = from + 3 * 365 * DAY;
  const key = (o: { ms: number; wall: string }) => (times.allDay ? o.wall.slice(0, 10) : iso(o.ms));
  const lo = times.allDay ? iso(from + 2 * DAY).slice(0, 10) : iso(from);
  const hi = times.allDay ? iso(to - 2 * DAY).slice(0, 10) : iso(to);
  const inside = (k: string) => k >= lo && k <= hi;
  const ours = expander
    .between(from - 2 * DAY, to + 2 * DAY)
    .map(key)
    .filter(inside);
  let raw: string[];
  try {
    raw = expandWithIcalJs(seriesCalendar(rule, times), new Date(from - 2 * DAY), new Date(to + 2 * DAY))
      .map((o) => o.start)
      .filter(inside);
  } catch (e) {
    kinds.set('ical.js refuses the rule', (kinds.get('ical.js refuses the rule') ?? 0) + 1);
    if (refused.length < 3) refused.push(`${rule.rrule}: ${(e as Error).message}`);
    continue;
  }
  const theirs = raw.filter((k, i) => raw[i - 1] !== k);
  const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  let kind: Kind = 'agree';
  if (!same(ours, theirs)) {
    // ical.js drops or keeps a DTSTART its rule does not generate depending on the rule's shape (RFC: undefined).
    if (same(ours.slice(1), theirs) || same(ours.slice(1), theirs.slice(1))) kind = 'unsynchronised DTSTART';
    else kind = 'other';
  } else if (raw.length !== theirs.length) kind = 'RDATE repeated by ical.js';
  kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  if (kind === 'other' && examples.length < 5) examples.push({ rule, times, ours, theirs });
}

/** ms per series for a 24-month window from a year after the start, each library from its own input. */
function timeOf(run: (rule: StoredRule, times: SeriesTimes, from: number, to: number) => number): number {
  const rounds: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    let n = 0;
    for (const { rule, times } of samples) {
      const from = Date.parse(`${times.start.slice(0, 10)}T00:00:00Z`) + 365 * DAY;
      n += run(rule, times, from, from + 730 * DAY);
    }
    rounds.push((performance.now() - t0) / samples.length);
    if (n < 0) console.log(n);
  }
  return median(rounds);
}

// A fresh expander per series each round (the gateway keeps them, but a first read of a series pays this).
const ours = timeOf((rule, times, from, to) => {
  const e = Expander.of({ ...rule, rrule: `${rule.rrule};WKST=MO` }, times);
  return e ? e.between(from, to).length : 0;
});
const calendars = samples.map(({ rule, times }) => seriesCalendar(rule, times));
let i = 0;
const theirs = timeOf((_rule, _times, from, to) => {
  const text = calendars[i++ % calendars.length];
  try {
    return expandWithIcalJs(text, new Date(from), new Date(to)).length;
  } catch {
    return 0;
  }
});

console.log(`rules: ${samples.length} of the ${SHAPES} shapes (seed ${SEED})`);
for (const [kind, n] of kinds) console.log(`  ${kind.padEnd(28)} ${n}`);
console.log(
  `ms per series, 24-month window (median of 3): rrule-temporal ${ours.toFixed(3)}, ical.js ${theirs.toFixed(3)}`,
);
for (const x of refused) console.log(`  refused: ${x}`);
for (const x of examples) console.log(JSON.stringify(x).slice(0, 600));

// What an index would pay: weekly series without an end (started over two years, five zones), 24 months each.
const WEEKLY = Number(process.env.BENCH_WEEKLY ?? 2000);
const ZONES = ['America/New_York', 'Europe/Madrid', 'Asia/Kolkata', 'Australia/Lord_Howe', 'UTC'];
const DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const w0 = performance.now();
let occurrences = 0;
for (let i = 0; i < WEEKLY; i++) {
  const d = new Date(Date.UTC(2024, 0, 1) + (i % 700) * DAY);
  const start = `${d.toISOString().slice(0, 10)} ${String(8 + (i % 12)).padStart(2, '0')}:00:00`;
  const rule = readRuleText(`RRULE:FREQ=WEEKLY;BYDAY=${DAYS[d.getUTCDay()]}`);
  const e = rule && Expander.of(rule, { start, timezone: ZONES[i % ZONES.length] as string, allDay: false });
  occurrences += e ? e.between(Date.UTC(2026, 10, 29), Date.UTC(2028, 10, 29)).length : 0;
}
console.log(
  `${WEEKLY} weekly series without an end, 24 months each: ${occurrences} occurrences, ${((performance.now() - w0) / WEEKLY).toFixed(3)} ms per series`,
);
