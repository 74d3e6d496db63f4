// Shared input types of the TEC record serialisers: site facts, related objects and per-call options.
import type { Mapping } from '../mapping/schema.ts';
import type { WpMedia, WpPost, WpTerm } from '../wp/types.ts';

export interface SiteInfo {
  /** Site URL, no trailing slash. */
  home: string;
  /** The gateway's public root for this request, e.g. `http://localhost:3000/wp-json/calendar/events/v1`. */
  apiRoot: string;
  /** Site time zone (`timezone_string` or `UTC±N`). */
  timezone: string;
}

/** Objects an event links to, fetched beforehand (one `include=` request each) and looked up by id. */
export interface Related {
  terms: Map<number, WpTerm>;
  venues: Map<number, WpPost>;
  organizers: Map<number, WpPost>;
  media: Map<number, WpMedia>;
  /** The series of the overrides among the events, as the caller may read them (their rule is the overrides'). */
  series?: Map<number, WpPost>;
}

export interface SerializeOptions {
  mapping: Mapping;
  site: SiteInfo;
  /** `single` adds `json_ld` (GET by id/slug only); `write` is a create/update/delete response. */
  context: 'list' | 'single' | 'write';
  /** The `password` request parameter. */
  password?: string;
}

export type Json = Record<string, unknown>;
