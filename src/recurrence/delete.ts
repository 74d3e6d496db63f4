// Deletes with a scope: one occurrence (an EXDATE, and its override to the trash), this and the following ones (the
// series ends before it), or the whole series with its overrides. Each step is journaled (src/recurrence/journal.ts).
import type { RequestContext } from '../context.ts';
import { msOfUtcWall } from '../dates/utc-wall.ts';
import type { Deps } from '../deps.ts';
import type { SiteInfo } from '../serialize/index.ts';
import { refusal } from '../wp/errors.ts';
import type { WpPost } from '../wp/types.ts';
import { newUndo, undoing } from '../write/undo.ts';
import { changeEvent, trashEvent } from './journal.ts';
import { occursAt } from './occurs.ts';
import { storedValueAt } from './rule-dates.ts';
import { endBefore } from './split.ts';
import { linksOf, overridesOf } from './store.ts';
import type { Scope, Target } from './target.ts';
import { ruleBody } from './values.ts';
import { answerMany, type Kit } from './write-answer.ts';

type Occurrence = Target & { kind: 'series' | 'occurrence' };

/**
 * A delete of a series or one of its occurrences with `scope`; undefined when the plain delete of the series post
 * does it (`all` on a series without overrides).
 */
export async function deleteScoped(
  kit: Kit,
  deps: Deps,
  ctx: RequestContext,
  site: SiteInfo,
  t: Occurrence,
  scope: Scope,
): Promise<Awaited<ReturnType<typeof answerMany>> | undefined> {
  const { series, ms } = t;
  const all = await overridesOf(deps, ctx, series.post.id);
  if (scope === 'all' && !all.length) return undefined;
  const undo = newUndo(deps);
  undo.target = { restBase: deps.mapping.event.restBase, id: series.post.id };
  return undoing(
    deps,
    ctx,
    undo,
    async () => {
      const touched: WpPost[] = [];
      if (scope === 'this') {
        // An EXDATE where the rule makes the occurrence; an override of a date it no longer makes only goes.
        let answered = series.post;
        if (occursAt(series.rule, series.start, ms)) {
          const exdate = [...new Set([...series.rule.exdate, storedValueAt(ms, series.start)])].sort();
          answered = await changeEvent(
            deps,
            ctx,
            undo,
            series.post,
            ruleBody(deps, { ...series.rule, exdate }),
          );
        }
        if (t.override) {
          touched.push(answered);
          answered = await trashEvent(deps, ctx, undo, t.override);
        }
        return answerMany(kit, deps, ctx, site, answered, touched, 200);
      }
      if (scope === 'following') {
        const ended = await changeEvent(
          deps,
          ctx,
          undo,
          series.post,
          ruleBody(deps, endBefore(series.rule, series.start, ms)),
        );
        for (const o of all)
          if (msOfUtcWall(linksOf(deps, o).recurrenceId ?? '') >= ms)
            touched.push(await trashEvent(deps, ctx, undo, o));
        return answerMany(kit, deps, ctx, site, ended, touched, 200);
      }
      // The series last: a failure before it leaves a series whose trashed overrides the rollback gives back.
      for (const o of all) touched.push(await trashEvent(deps, ctx, undo, o));
      const gone = await trashEvent(deps, ctx, undo, series.post);
      return answerMany(kit, deps, ctx, site, gone, touched, 200);
    },
    { map: (err) => refusal(err, true) },
  );
}
