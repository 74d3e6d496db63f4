// PHP's strtotime, ported from timelib (the library PHP's date functions are built on) and checked against php-cli.
import { FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { scanPhpDate } from './php-scan.ts';
import { resolvePhpDate } from './php-update.ts';
import { zoneObjectOf } from './zones.ts';

/** An instant, and the zone whose clock the text was written in: its own zone if it named one, else the caller's. */
export interface PhpTime {
  seconds: number;
  zone: Zone;
}

/**
 * `strtotime(text, now)` as PHP answers it with `tz` as its default time zone; null where PHP returns false.
 * Unlike locutus's port, which this replaces, it follows timelib rule by rule (`next wednesday` on a Wednesday is a
 * week later; `first monday of`, `+3 weekdays`, `monday next week`, `… Europe/Paris` all work) and never reads
 * the host's time zone. `src/dates/strtotime.test.ts` compares it with PHP itself.
 */
export function strtotime(text: string, now: number, tz: string): PhpTime | null {
  const parsed = scanPhpDate(text);
  if (parsed === null) return null;
  const zone = zoneObjectOf(tz);
  const seconds = resolvePhpDate(parsed, now, zone);
  if (seconds === null) return null;
  const named = parsed.zone;
  if (named === null) return { seconds, zone };
  if ('id' in named) return { seconds, zone: IANAZone.create(named.id) };
  return {
    seconds,
    zone: named.offset === 0 ? FixedOffsetZone.utcInstance : FixedOffsetZone.instance(named.offset / 60),
  };
}
