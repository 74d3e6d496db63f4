// Stage: a handler's result as bytes for the route's content type (JSON, iCalendar), or the error the stages after
// it threw as WordPress's error body. Cached and direct answers are both made here, once.
import type { Produces } from '../contract/route.ts';
import type { FeedBody } from '../events/feed.ts';
import { answerOf, JSON_TYPE } from '../http/answer.ts';
import type { Stage } from '../http/exchange.ts';
import { errorAnswer, toApiError } from '../http/respond.ts';
import type { Logger } from '../log.ts';
import { renderCalendarBytes } from '../render/ical.ts';

interface Renderer {
  type: string;
  /** The body as text or its bytes; a large one is made over several turns of the event loop. */
  bytes: (body: unknown) => string | Promise<Buffer>;
}

/** One renderer per representation a route may produce. */
export const RENDERERS: Record<Produces, Renderer> = {
  json: { type: JSON_TYPE, bytes: (body) => JSON.stringify(body) },
  ical: {
    type: 'text/calendar; charset=utf-8',
    bytes: (body) => {
      const b = body as FeedBody;
      return renderCalendarBytes(b.feed, b.calendar);
    },
  },
};

export const render =
  (log: Logger): Stage =>
  async (x, next) => {
    try {
      await next();
    } catch (err) {
      x.answer = errorAnswer(toApiError(err, log, x.requestId));
      return;
    }
    const r = x.result;
    if (!r) throw new Error('render runs around handle');
    const renderer = RENDERERS[x.binding.contract.produces ?? 'json'];
    x.answer = answerOf(await renderer.bytes(r.body), {
      status: r.status ?? 200,
      headers: r.headers,
      type: renderer.type,
    });
  };
