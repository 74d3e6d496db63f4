// The write arguments of recurring events: `recurrence` on a create or update, `scope` on an update or delete.
import { z } from 'zod';
import type { ArgDef } from './args.ts';
import type { Arg } from './records/fields.ts';

/** What /doc says `recurrence` takes: the API's object (a `text` read back may be sent with it) or the rule text. */
const RULE_OBJECT = {
  type: 'object',
  properties: {
    rrule: { type: 'string', example: 'FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T235959Z' },
    rdate: { type: 'array', items: { type: 'string' } },
    exdate: { type: 'array', items: { type: 'string' } },
    text: { type: 'string' },
  },
  required: ['rrule'],
};

/**
 * The `recurrence` write argument, for the `recurrence` field of the event record (its description is the field's).
 * Checked by the handler, which knows the event's start and time zone (src/recurrence/values.ts).
 */
export const recurrenceArg: Arg<unknown> = {
  type: 'object',
  in: 'body',
  accepts: { anyOf: [{ ...RULE_OBJECT, nullable: true }, { type: 'string' }] },
  // The shape only; what the rule says is checked by the handler.
  schema: z.union(
    [
      z.string(),
      z.null(),
      z
        .object({
          rrule: z.string(),
          rdate: z.array(z.string()).optional(),
          exdate: z.array(z.string()).optional(),
          text: z.string().optional(),
        })
        .loose(),
    ],
    { error: 'recurrence must be an object {rrule, rdate, exdate} (lists of dates) or the rule text.' },
  ),
};

export const SCOPES = ['this', 'following', 'all'] as const;

export const scopeArg: ArgDef<(typeof SCOPES)[number]> = {
  type: 'string',
  description: {
    en: 'Which occurrences of a series the write changes: `this` one, this and the `following` ones, or `all`. Default: `all` on a series id, `this` on an occurrence id. Ignored on an event that does not repeat.',
    es: 'Qué ocurrencias de una serie cambia la escritura: `this` (esta), `following` (esta y las siguientes) o `all` (todas). Por defecto: `all` con el id de una serie, `this` con el id de una ocurrencia. Se ignora en un evento que no se repite.',
  },
  enum: SCOPES,
  schema: z.enum(SCOPES, { error: 'scope must be one of this, following, all.' }),
};
