// Stage: a successful write drops every cached answer that showed what it touched, before the caller hears back.
// Softly when the handler says the write hid nothing (src/cache/soft.ts); the caller itself, being signed in, never
// reads the shared cache, so it sees its write at once either way. Each step (the handler's answer, planning the tags
// and dropping, holding the written record) is a turn of the event loop of its own: reads waiting meanwhile are served
// between them (issue 33).
import { setImmediate as nextTurn } from 'node:timers/promises';

import type { ResponseCache } from '../cache/response-cache.ts';
import { answerTags } from '../cache/tags.ts';
import type { Stage } from '../http/exchange.ts';

export const invalidate =
  (cache: ResponseCache): Stage =>
  async (x, next) => {
    await next();
    const r = x.result;
    if (x.method === 'GET' || !r || (r.status ?? 200) >= 300) return;
    await nextTurn();
    // The handler names what the answer cannot show: the linked lists an event's change altered (src/cache/links.ts).
    await cache.invalidate([...answerTags(x.binding.contract, true, r.body), ...(r.tags ?? [])], {
      soft: r.soft === true,
    });
    if (r.afterDrop) {
      await nextTurn();
      r.afterDrop();
    }
  };
