// Binds the venues and organizers contracts to their handlers (one generic set, bound once per kind).
import { type LinkedKind, organizerRoutes, venueRoutes } from '../contract/linked.ts';
import type { Deps } from '../deps.ts';
import { type Binding, bind } from '../http/handler.ts';
import { listLinked } from './list.ts';
import { idOfSlug, passwordOf, readLinked, requireId } from './read.ts';
import { createLinked, deleteLinked, updateLinked } from './write.ts';

function bindingsOf(deps: Deps, kind: LinkedKind): Binding[] {
  const c = kind === 'venue' ? venueRoutes : organizerRoutes;
  const id = (args: Record<string, unknown>) => Number(args.id);
  // Every route but the list answers (or wrote) one record of the kind.
  const one = { shows: { kind } };
  return [
    bind(c.list, (i) => listLinked(deps, kind, i as Parameters<typeof listLinked>[2]), {
      shows: { kind, list: `${kind}s` },
    }),
    bind(c.create, async (i) => createLinked(deps, i.ctx, i.site, kind, i.args), one),
    bind(
      c.read,
      async (i) => ({
        body: await readLinked(deps, i.ctx, i.site, kind, id(i.args), passwordOf(i.raw)),
      }),
      one,
    ),
    bind(c.update, async (i) => updateLinked(deps, i.ctx, i.site, kind, id(i.args), i.args), one),
    bind(c.delete, async (i) => deleteLinked(deps, i.ctx, i.site, kind, id(i.args)), one),
    bind(
      c.readBySlug,
      async (i) => {
        const found = await requireId(
          deps,
          i.ctx,
          kind,
          await idOfSlug(deps, i.ctx, kind, i.params.slug ?? ''),
        );
        return { body: await readLinked(deps, i.ctx, i.site, kind, found, passwordOf(i.raw)) };
      },
      one,
    ),
    bind(
      c.updateBySlug,
      async (i) =>
        updateLinked(
          deps,
          i.ctx,
          i.site,
          kind,
          await idOfSlug(deps, i.ctx, kind, i.params.slug ?? ''),
          i.args,
        ),
      one,
    ),
    bind(
      c.deleteBySlug,
      async (i) =>
        deleteLinked(deps, i.ctx, i.site, kind, await idOfSlug(deps, i.ctx, kind, i.params.slug ?? '')),
      one,
    ),
  ];
}

export const linkedBindings = (deps: Deps): Binding[] => [
  ...bindingsOf(deps, 'venue'),
  ...bindingsOf(deps, 'organizer'),
];
