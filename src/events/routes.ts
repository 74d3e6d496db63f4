// Binds the events contract to its handlers.
import { eventRoutes as c } from '../contract/events.ts';
import type { Deps } from '../deps.ts';
import { type Binding, bind } from '../http/handler.ts';
import { eventFeed, eventsFeed } from './feed.ts';
import { listEvents } from './list.ts';
import { idOfSlug, readEventAnswer } from './read.ts';
import { createEvent, deleteEvent, updateEvent } from './write.ts';

/** TEC reads `context` from the raw request (it is no declared argument). */
const contextEdit = (raw: Record<string, unknown>): boolean => raw.context === 'edit';

export function eventBindings(deps: Deps): Binding[] {
  return [
    bind(c.list, (i) => listEvents(deps, i)),
    bind(c.create, async (i) => createEvent(deps, i.ctx, i.site, i.args, i.body)),
    bind(c.read, (i) =>
      readEventAnswer(deps, i.ctx, i.site, i.args.id!, i.args.password, { edit: contextEdit(i.raw) }),
    ),
    bind(c.update, async (i) => updateEvent(deps, i.ctx, i.site, i.args.id!, i.args, i.body, i.args.scope)),
    bind(c.delete, async (i) => deleteEvent(deps, i.ctx, i.site, i.args.id!, i.args.scope)),
    bind(c.readBySlug, async (i) => {
      const id = await idOfSlug(deps, i.ctx, i.params.slug!);
      // An override's slug names the occurrence it replaces: answered as that occurrence, under its id.
      return readEventAnswer(deps, i.ctx, i.site, id, undefined, { asOccurrence: true });
    }),
    bind(c.updateBySlug, async (i) => {
      const id = await idOfSlug(deps, i.ctx, i.params.slug!);
      return updateEvent(deps, i.ctx, i.site, id, i.args, i.body, i.args.scope);
    }),
    bind(c.deleteBySlug, async (i) => {
      const id = await idOfSlug(deps, i.ctx, i.params.slug!);
      return deleteEvent(deps, i.ctx, i.site, id, i.args.scope);
    }),
    bind(c.feed, (i) => eventsFeed(deps, i.ctx, i.site, i.args)),
    bind(c.readFeed, (i) => eventFeed(deps, i.ctx, i.site, i.args.id!, i.args.password)),
  ];
}
