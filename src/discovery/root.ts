// Which API root a description is for: its language, and whether it is the secondary (language) root.
import { DateTime } from 'luxon';
import type { ArgDef, ArgsShape, Described, ShownDefault } from '../contract/args.ts';
import type { RouteContract } from '../contract/route.ts';
import { parseTime } from '../dates/parse.ts';
import { zoneOf } from '../dates/zones.ts';

export interface RootInfo {
  /** The root's default content language (`en` on the primary root, `es` on the language root by default). */
  lang: string;
  secondary: boolean;
}

/** What a description needs besides the contract: the root, the clock and the site zone (computed defaults). */
export interface DescribeEnv {
  root: RootInfo;
  now: Date;
  timezone: string;
  /** Leave out defaults computed from the clock (a document generated once, e.g. the typed client's types). */
  stable?: boolean;
}

/** The root's wording of a description (English where the root's language has none). */
export const say = (d: Described, root: RootInfo): string => (root.lang === 'es' ? d.es : d.en);

/** The arguments a root documents (undeclared ones never, secondary-only ones on the language root), in order. */
export function documentedArgs(shape: ArgsShape, root: RootInfo): Array<[string, ArgDef]> {
  return Object.entries(shape).filter(([, def]) =>
    def.roots === undefined ? true : def.roots === 'secondary' ? root.secondary : false,
  );
}

/** The default shown for an argument: its applied default, or the value a computed default has now. */
export function shownDefault(def: ArgDef, env: DescribeEnv): unknown {
  if (def.default !== undefined) return def.default;
  if (env.stable) return undefined;
  return def.shownDefault ? SHOWN[def.shownDefault](env) : undefined;
}

const WALL = 'yyyy-MM-dd HH:mm:ss';

/** TEC's shown default of `start_date`: "yesterday 23:59" on the UTC clock, as wall time in the site zone. */
export function shownStartDefault({ now, timezone }: { now: Date; timezone: string }): string {
  const yesterday = DateTime.fromJSDate(now, { zone: 'utc' })
    .minus({ days: 1 })
    .set({ hour: 23, minute: 59, second: 0, millisecond: 0 });
  return yesterday.setZone(zoneOf(timezone)).toFormat(WALL);
}

/** TEC's shown default of `end_date`: PHP's `strtotime('+24 months')` on the UTC clock (29 February → 1 March). */
export function shownEndDefault({ now }: { now: Date; timezone: string }): string {
  return parseTime('+24 months', 'UTC', now)!.toFormat(WALL);
}

const SHOWN: Record<ShownDefault, (env: DescribeEnv) => unknown> = {
  null: () => null,
  'list-start': shownStartDefault,
  'list-end': shownEndDefault,
};

/** Endpoints of one route in WordPress's registration order for TEC: read, then delete, then create/edit. */
const rank = (c: RouteContract): number =>
  c.methods.includes('GET') ? 0 : c.methods.includes('DELETE') ? 1 : 2;

/** TEC's order of documented paths; paths it does not know keep their contract order after these. */
const PATH_ORDER = [
  '/',
  '/doc',
  '/events',
  '/events/{id}',
  '/events/by-slug/{slug}',
  // Ours, after TEC's routes of the same records: the iCalendar feeds.
  '/events.ics',
  '/events/{id}.ics',
  '/venues',
  '/venues/{id}',
  '/venues/by-slug/{slug}',
  '/organizers',
  '/organizers/{id}',
  '/organizers/by-slug/{slug}',
  '/categories',
  '/categories/{id}',
  '/tags',
  '/tags/{id}',
];

export interface RouteGroup {
  pattern: string;
  path: string;
  contracts: RouteContract[];
}

/** Contracts grouped by route (same pattern), routes in TEC's order, endpoints in registration order. */
export function groupRoutes(contracts: readonly RouteContract[]): RouteGroup[] {
  const byPattern = new Map<string, RouteGroup>();
  for (const c of contracts) {
    const g = byPattern.get(c.pattern) ?? { pattern: c.pattern, path: c.path, contracts: [] };
    g.contracts.push(c);
    byPattern.set(c.pattern, g);
  }
  const position = (g: RouteGroup) => {
    const i = PATH_ORDER.indexOf(g.path);
    return i === -1 ? PATH_ORDER.length : i;
  };
  const groups = [...byPattern.values()];
  // Array.prototype.sort is stable: unknown paths keep their contract order.
  groups.sort((a, b) => position(a) - position(b));
  for (const g of groups) g.contracts.sort((a, b) => rank(a) - rank(b));
  return groups;
}
