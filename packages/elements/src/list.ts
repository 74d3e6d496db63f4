// The upcoming list: events grouped by day under a heading each, from today on, a page of the API at a time.
import { html, nothing, type TemplateResult } from 'lit';
import { classMap } from 'lit/directives/class-map.js';
import { type Day, maxDay } from './dates.ts';
import { byStart, type Placed } from './layout.ts';

import { eventClasses, eventExtra, mark, plain, type ViewContext } from './view.ts';

/** Each event under the first day it covers from `from` on (an event in progress is listed today). */
export function groupByDay(placed: Placed[], from: Day): Array<[Day, Placed[]]> {
  const groups = new Map<Day, Placed[]>();
  for (const p of [...placed].sort(byStart)) {
    const day = maxDay(p.first, from);
    if (p.last < from) continue;
    groups.set(day, [...(groups.get(day) ?? []), p]);
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
}

export function renderList(ctx: ViewContext, more: (() => void) | undefined): TemplateResult {
  const groups = groupByDay(ctx.placed, ctx.anchor);
  return html`<div part="list" class="list">
    ${groups.map(
      ([day, items]) => html`<section class="list-day" data-day=${day}>
        <h3 part="list-day">${ctx.f.dayLong(day)}</h3>
        <ul>
          ${items.map((p) => html`<li>${eventRow(ctx, p, true)}</li>`)}
        </ul>
      </section>`,
    )}
    ${more ? html`<button type="button" part="load-more" class="load-more" @click=${more}>${ctx.s.loadMore}</button>` : nothing}
  </div>`;
}

/** The cancelled or postponed badge of an event, if any. */
/** An event as a row of a list (the upcoming list, a day's list in the dialog): time, title, status, venue. */
export function eventRow(ctx: ViewContext, p: Placed, where: boolean): TemplateResult {
  return html`<button
    type="button"
    part="event"
    class=${classMap({ ...eventClasses(p), row: true })}
    data-event-id=${String(p.event.id)}
    @click=${(e: Event) => ctx.openEvent(p, e.currentTarget as HTMLElement)}
  >
    <span class="time">${p.allDay ? ctx.s.allDay : ctx.f.time(p.start)}</span>
    <span class="title">${mark(p)}${plain(p.event.title)}${eventExtra(ctx, p)}</span>
    ${status(ctx, p)} ${where ? html`<span class="where">${venueName(p)}</span>` : nothing}
  </button>`;
}

export function status(ctx: ViewContext, p: Placed): TemplateResult | typeof nothing {
  const st = p.event.event_status;
  if (st !== 'canceled' && st !== 'postponed') return nothing;
  return html`<span part="badge" class="badge ${st}">${st === 'canceled' ? ctx.s.canceled : ctx.s.postponed}</span>`;
}

/** The name of an event's venue (the API gives `[]` when it has none). */
export function venueName(p: Placed): string {
  const v = p.event.venue;
  return v && !Array.isArray(v) ? plain(v.venue) : '';
}
