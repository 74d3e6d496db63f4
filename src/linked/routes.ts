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
  return [
    bind(c.list, (i) => listLinked(deps, kind, i as Parameters<typeof listLinked>[2])),
    bind(c.create, async (i) => createLinked(deps, i.ctx, i.site, kind, i.args)),
    bind(c.read, async (i) => ({
      body: await readLinked(deps, i.ctx, i.site, kind, id(i.args), passwordOf(i.raw)),
    })),
    bind(c.update, async (i) => updateLinked(deps, i.ctx, i.site, kind, id(i.args), i.args)),
    bind(c.delete, async (i) => deleteLinked(deps, i.ctx, i.site, kind, id(i.args))),
    bind(c.readBySlug, async (i) => {
      const found = await requireId(
        deps,
        i.ctx,
        kind,
        await idOfSlug(deps, i.ctx, kind, i.params.slug ?? ''),
      );
      return { body: await readLinked(deps, i.ctx, i.site, kind, found, passwordOf(i.raw)) };
    }),
    bind(c.updateBySlug, async (i) =>
      updateLinked(deps, i.ctx, i.site, kind, await idOfSlug(deps, i.ctx, kind, i.params.slug ?? ''), i.args),
    ),
    bind(c.deleteBySlug, async (i) =>
      deleteLinked(deps, i.ctx, i.site, kind, await idOfSlug(deps, i.ctx, kind, i.params.slug ?? '')),
    ),
  ];
}

export const linkedBindings = (deps: Deps): Binding[] => [
  ...bindingsOf(deps, 'venue'),
  ...bindingsOf(deps, 'organizer'),
];
