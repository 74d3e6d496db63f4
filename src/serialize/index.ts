// TEC record serialisation: wp/v2 posts, terms and media → calendar/events/v1 response records.

export { canSeeProtected, globalId, isProtected } from './common.ts';
export { type CostDetails, type Currency, formatCost } from './cost.ts';
export { serializeEvent } from './event.ts';
export { serializeImage } from './image.ts';
export { jsonLdEvent, jsonLdOrganizer, jsonLdVenue } from './jsonld.ts';
export { DATE_DETAIL_KEYS, EVENT_KEYS, ORGANIZER_KEYS, VENUE_KEYS } from './keys.ts';
export { serializeOrganizer, serializeVenue } from './linked.ts';
export { blankProtected, blanksOf } from './protect.ts';
export { serializeTerm, type TermOptions } from './terms.ts';
export type { Json, Related, SerializeOptions, SiteInfo } from './types.ts';
