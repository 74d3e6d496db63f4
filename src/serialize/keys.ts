// TEC's record keys in emission order (§2.1–2.3), read from the record descriptors: for building records and
// testing their shape.
import { eventRecord, keysOf, organizerRecord, venueRecord } from '../contract/records.ts';

export const EVENT_KEYS: readonly string[] = keysOf(eventRecord);
export const VENUE_KEYS: readonly string[] = keysOf(venueRecord);
export const ORGANIZER_KEYS: readonly string[] = keysOf(organizerRecord);

export const DATE_DETAIL_KEYS = ['year', 'month', 'day', 'hour', 'minutes', 'seconds'] as const;
