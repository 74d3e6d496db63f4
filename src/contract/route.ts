// A contract route: a plain object (pattern, methods, args, summary); handlers are bound elsewhere.
import type { ArgsShape, Described } from './args.ts';
import type { RecordDescriptor } from './records.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const READABLE = ['GET'] as const satisfies readonly Method[];
export const CREATABLE = ['POST'] as const satisfies readonly Method[];
export const EDITABLE = ['POST', 'PUT', 'PATCH'] as const satisfies readonly Method[];
export const DELETABLE = ['DELETE'] as const satisfies readonly Method[];

export interface RouteContract<S extends ArgsShape = ArgsShape> {
  /** Stable name, e.g. `events.list`. */
  id: string;
  /** WordPress route regex below the namespace, e.g. `/events/(?P<id>\d+)`. */
  pattern: string;
  /** OpenAPI path, e.g. `/events/{id}`. */
  path: string;
  methods: readonly Method[];
  summary: Described;
  args: S;
  /**
   * What a successful answer holds: records of one kind, as a list under `list` (with TEC's paging fields) or one
   * record (reads and writes alike). /doc's response schema and the cache's tags come from it. Absent: no record.
   */
  returns?: Returns;
  /** The representation of a successful answer; JSON unless said. Errors are always JSON. */
  produces?: Produces;
  /** The JSON schema of a successful answer, for a route whose answer is no record (`returns` absent). */
  response?: Record<string, unknown>;
  /** The route also streams server-sent events (`Accept: text/event-stream`): what they hold, for /doc. */
  events?: Described;
}

/** The representations a route answers in: JSON, or an iCalendar feed of the records it returns. */
export type Produces = 'json' | 'ical';

export interface Returns {
  record: RecordDescriptor;
  list?: string;
}

export const route = <S extends ArgsShape>(r: RouteContract<S>): RouteContract<S> => r;

/** `/events/(?P<id>\d+)` → a JS RegExp anchored at both ends with named groups. */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/\(\?P</g, '(?<')}$`);
}
