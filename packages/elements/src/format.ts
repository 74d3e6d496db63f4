// Dates and times in the viewer's language, by Intl: walls are formatted as UTC so no zone moves them again.
import { type Day, dateOf, type Wall } from './dates.ts';
import type { Placed } from './layout.ts';

export interface Formats {
  locale: string;
  /** "November 2026" */
  month(day: Day): string;
  /** "Sunday, November 1, 2026" */
  dayLong(day: Day): string;
  /** "Sun" */
  weekdayShort(day: Day): string;
  /** "Sunday" */
  weekdayLong(day: Day): string;
  /** "1" */
  dayNumber(day: Day): string;
  /** "Nov 1 – 7, 2026" */
  range(first: Day, last: Day): string;
  /** "7:30 PM" */
  time(wall: Wall): string;
  /** "1 PM" for an hour of the time axis. */
  hour(h: number): string;
  /** When an event happens, in words: "Sunday, November 1, 2026, 7:30 – 9:00 PM". */
  when(p: Placed, allDay: string): string;
}

const utc = (wall: Wall) => {
  const [y, m, d] = wall.day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d!, Math.floor(wall.minutes / 60), wall.minutes % 60));
};

export function formats(locale: string): Formats {
  const f = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...o });
  const month = f({ month: 'long', year: 'numeric' });
  const dayLong = f({ dateStyle: 'full' });
  const weekday = f({ weekday: 'short' });
  const weekdayLong = f({ weekday: 'long' });
  const dayNumber = f({ day: 'numeric' });
  const span = f({ dateStyle: 'medium' });
  const time = f({ timeStyle: 'short' });
  const hour = f({ hour: 'numeric' });
  const dateTime = f({ dateStyle: 'full', timeStyle: 'short' });
  return {
    locale,
    month: (day) => month.format(dateOf(day)),
    dayLong: (day) => dayLong.format(dateOf(day)),
    weekdayShort: (day) => weekday.format(dateOf(day)),
    weekdayLong: (day) => weekdayLong.format(dateOf(day)),
    dayNumber: (day) => dayNumber.format(dateOf(day)),
    range: (first, last) => span.formatRange(dateOf(first), dateOf(last)),
    time: (wall) => time.format(utc(wall)),
    hour: (h) => hour.format(new Date(Date.UTC(2000, 0, 1, h))),
    when(p, allDay) {
      if (p.allDay) {
        return p.first === p.last
          ? `${dayLong.format(dateOf(p.first))} (${allDay})`
          : `${dayLong.formatRange(dateOf(p.first), dateOf(p.last))} (${allDay})`;
      }
      const end = p.end.minutes === 1440 ? { day: p.end.day, minutes: 1439 } : p.end;
      return dateTime.formatRange(utc(p.start), utc(end));
    },
  };
}
