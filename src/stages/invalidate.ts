// Stage: a successful write drops every cached answer that showed what it touched, before the caller hears back.
// Softly when the handler says the write hid nothing (src/cache/soft.ts); the caller itself, being signed in, never
// reads the shared cache, so it sees its write at once either way.

import type { ResponseCache } from '../cache/response-cache.ts';
import { answerTags } from '../cache/tags.ts';
import type { Stage } from '../http/exchange.ts';

export const invalidate =
  (cache: ResponseCache): Stage =>
  async (x, next) => {
    await next();
    const r = x.result;
    if (x.method === 'GET' || !r || (r.status ?? 200) >= 300) return;
    // The handler names what the answer cannot show: the linked lists an event's change altered (src/cache/links.ts).
    await cache.invalidate([...answerTags(x.binding.contract, true, r.body), ...(r.tags ?? [])], {
      soft: r.soft === true,
    });
    r.afterDrop?.();
  };
