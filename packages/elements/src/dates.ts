// Calendar days as `YYYY-MM-DD` strings and wall clocks in a zone: the arithmetic of the views, on Date.UTC and Intl.

/** A calendar day, `YYYY-MM-DD`. */
export type Day = string;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function toUtc(day: Day): number {
  const [y, m, d] = day.split('-').map(Number);
  return Date.UTC(y!, m! - 1, d!);
}

function fromUtc(ms: number): Day {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

export const addDays = (day: Day, n: number): Day => fromUtc(toUtc(day) + n * 86_400_000);

/** 0 = Sunday … 6 = Saturday. */
export const weekday = (day: Day): number => new Date(toUtc(day)).getUTCDay();

export const daysBetween = (a: Day, b: Day): number => Math.round((toUtc(b) - toUtc(a)) / 86_400_000);

export const monthOf = (day: Day): string => day.slice(0, 7);

export function addMonths(day: Day, n: number): Day {
  const [y, m] = day.split('-').map(Number);
  const d = new Date(Date.UTC(y!, m! - 1 + n, 1));
  return fromUtc(d.getTime());
}

/** The first day of the week holding `day`, weeks starting on `firstDay` (0 Sunday, 1 Monday). */
export const startOfWeek = (day: Day, firstDay: number): Day =>
  addDays(day, -((weekday(day) - firstDay + 7) % 7));

/** The days a view shows: a month as whole weeks, a week, or one day. */
export function visibleDays(view: string, anchor: Day, firstDay: number): Day[] {
  let first: Day;
  let count: number;
  if (view === 'month') {
    const start = `${monthOf(anchor)}-01`;
    first = startOfWeek(start, firstDay);
    const last = addDays(addMonths(start, 1), -1);
    count = daysBetween(first, startOfWeek(last, firstDay)) + 7;
  } else if (view === 'day') {
    first = anchor;
    count = 1;
  } else {
    first = startOfWeek(anchor, firstDay);
    count = 7;
  }
  return Array.from({ length: count }, (_, i) => addDays(first, i));
}

/** A wall clock: its day and minutes since midnight. */
export interface Wall {
  day: Day;
  minutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` of a UTC instant written `YYYY-MM-DD HH:MM:SS`. */
export function wallIn(utc: string, zone: string): Wall {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(`${utc.replace(' ', 'T')}Z`))) parts[p.type] = p.value;
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** A local `YYYY-MM-DD HH:MM:SS` read as it is written. */
export function wallOf(local: string): Wall {
  return { day: local.slice(0, 10), minutes: Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16)) };
}

/** Today in `zone` (the viewer's when undefined). */
export function today(zone?: string): Day {
  const now = new Date().toISOString();
  return wallIn(`${now.slice(0, 10)} ${now.slice(11, 19)}`, zone ?? viewerZone()).day;
}

export const viewerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A JS Date at noon UTC of a day: formatted with timeZone UTC, it names that day in any locale. */
export const dateOf = (day: Day): Date => new Date(toUtc(day) + 43_200_000);

/** A day as `YYYY-MM-DD` if `value` is one (or `YYYY-MM`, read as its first day), else undefined. */
export function parseDay(value: string | null | undefined): Day | undefined {
  if (!value) return undefined;
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(value);
  if (!m) return undefined;
  const day = `${m[1]}-${m[2]}-${m[3] ?? '01'}`;
  return fromUtc(toUtc(day)) === day ? day : undefined;
}

export const maxDay = (a: Day, b: Day): Day => (a > b ? a : b);
