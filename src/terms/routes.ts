// Binds the categories and tags contracts to the generic term handlers.
import { categoryRoutes, type TermKind, type TermRoutes, tagRoutes } from '../contract/terms.ts';
import type { Deps } from '../deps.ts';
import { type Binding, bind } from '../http/handler.ts';
import { listTerms } from './list.ts';
import { createTerm, deleteTerm, readTerm, type TermWriteArgs, updateTerm } from './single.ts';

function bindingsOf(deps: Deps, kind: TermKind, c: TermRoutes): Binding[] {
  return [
    bind(c.list, (i) => listTerms(deps, kind, i)),
    bind(c.create, (i) => createTerm(deps, kind, i.ctx, i.site, i.args as TermWriteArgs)),
    bind(c.read, (i) => readTerm(deps, kind, i.ctx, i.site, i.args.id!)),
    bind(c.update, (i) => updateTerm(deps, kind, i.ctx, i.site, i.args.id!, i.args as TermWriteArgs)),
    bind(c.delete, (i) => deleteTerm(deps, kind, i.ctx, i.site, i.args.id!)),
  ];
}

export function termBindings(deps: Deps): Binding[] {
  return [
    ...bindingsOf(deps, 'categories', categoryRoutes),
    ...bindingsOf(deps, 'tags', tagRoutes as unknown as TermRoutes),
  ];
}
