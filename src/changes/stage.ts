// Stage: a successful write through the gateway is logged as a change of each record its answer shows, before the
// caller hears back (a client that writes, then reads the feed, finds its change there).
import { answerTags, kindOfRoute } from '../cache/tags.ts';
import type { Stage } from '../http/exchange.ts';
import type { ChangeRecorder } from './recorder.ts';
import type { ChangeKind } from './types.ts';

export const recordChanges =
  (recorder: Pick<ChangeRecorder, 'tags'>): Stage =>
  async (x, next) => {
    await next();
    const r = x.result;
    if (x.method === 'GET' || !r || (r.status ?? 200) >= 300) return;
    // A retry answered with the first answer wrote nothing.
    if (r.headers?.['Idempotent-Replayed'] === 'true') return;
    // The record written, and what a nested write made with it (a venue, organizers, terms: those the log never
    // heard of; the others a write links to did not change).
    const kind = kindOfRoute(x.binding.contract.id) as ChangeKind;
    await recorder.tags([...answerTags(x.binding.contract, true, r.body), ...(r.tags ?? [])], kind, true);
  };
