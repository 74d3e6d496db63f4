// Every route group of calendar/events/v1, in TEC's documentation order: the source of discovery and /doc.
import { changesRoutes } from './changes.ts';
import { discoveryRoutes } from './discovery.ts';
import { eventRoutes } from './events.ts';
import { organizerRoutes, venueRoutes } from './linked.ts';
import type { RouteContract } from './route.ts';
import { categoryRoutes, tagRoutes } from './terms.ts';

/** Route groups in order; add new groups here (discovery and /doc are generated from this list). */
export const contractGroups: Array<Record<string, RouteContract>> = [
  discoveryRoutes,
  eventRoutes,
  venueRoutes,
  organizerRoutes,
  categoryRoutes,
  tagRoutes,
  changesRoutes,
];

export const allContracts = (): RouteContract[] => contractGroups.flatMap((g) => Object.values(g));
