// Never-throwing wrappers over src/dates/index.ts for serialisation, where bad stored data must not fail a list.
import { type DateDetails, dateDetails, timezoneAbbr, toUtc } from '../dates/index.ts';

// PHP: `date( 'Y', strtotime( '' ) )` formats timestamp 0.
const EPOCH: DateDetails = { year: '1970', month: '01', day: '01', hour: '00', minutes: '00', seconds: '00' };

/** Date details of a stored `Y-m-d H:i:s`; a `T` separator is accepted; anything else gives the epoch's. */
export function detailsOf(wallClock: string): DateDetails {
  try {
    return dateDetails(wallClock.replace('T', ' ').slice(0, 19));
  } catch {
    return { ...EPOCH };
  }
}

/** UTC copy of a local wall clock; '' when it cannot be computed. */
export function utcOf(wallClock: string, tz: string): string {
  try {
    return wallClock ? toUtc(wallClock, tz) : '';
  } catch {
    return '';
  }
}

export function abbrOf(wallClock: string, tz: string): string {
  try {
    return wallClock ? timezoneAbbr(wallClock, tz) : '';
  } catch {
    return '';
  }
}
