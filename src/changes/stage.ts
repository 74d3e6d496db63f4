// Stage: a successful write through the gateway is logged as a change of each record its answer shows, before the
// caller hears back (a client that writes, then reads the feed, finds its change there).
import { answerTags } from '../cache/tags.ts';
import type { Stage } from '../http/exchange.ts';
import type { ChangeRecorder } from './recorder.ts';

export const recordChanges =
  (recorder: Pick<ChangeRecorder, 'tags'>): Stage =>
  async (x, next) => {
    await next();
    const r = x.result;
    if (x.method === 'GET' || !r || (r.status ?? 200) >= 300) return;
    // The event, and what a nested write made with it (a venue, organizers, terms): the ledger drops the unchanged.
    await recorder.tags([...answerTags(x.binding.contract, true, r.body), ...(r.tags ?? [])]);
  };
