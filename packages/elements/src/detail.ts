// The dialog's content: one event in detail (time, venue and map, organizer, cost, description, status, .ics), or
// the events of one day ("+N more", Enter on a day).
import type { CalendarClient, Venue } from '@calendar-gateway/client';
import { html, nothing, type TemplateResult } from 'lit';
import type { Day } from './dates.ts';
import { eventsOn, type Placed } from './layout.ts';
import { eventRow, status, venueName } from './list.ts';
import { plain, type ViewContext } from './view.ts';

export type Opened = { event: Placed } | { day: Day };

export function renderDialog(
  ctx: ViewContext,
  opened: Opened,
  client: CalendarClient,
  close: () => void,
): TemplateResult {
  return html`<div class="dialog-head">
      <h2 id="dialog-title">
        ${'event' in opened ? plain(opened.event.event.title) : ctx.f.dayLong(opened.day)}
      </h2>
      <button type="button" class="close" part="close" @click=${close} aria-label=${ctx.s.close}>✕</button>
    </div>
    ${'event' in opened ? renderEvent(ctx, opened.event, client) : renderDay(ctx, opened.day)}`;
}

function renderDay(ctx: ViewContext, day: Day): TemplateResult {
  const items = eventsOn(ctx.placed, day);
  if (items.length === 0) return html`<p>${ctx.s.empty}</p>`;
  return html`<ul class="day-list">
    ${items.map((p) => html`<li>${eventRow(ctx, p, false)}</li>`)}
  </ul>`;
}

function renderEvent(ctx: ViewContext, p: Placed, client: CalendarClient): TemplateResult {
  const e = p.event;
  const venue = e.venue && !Array.isArray(e.venue) ? e.venue : undefined;
  const organizers = (e.organizer ?? []).map((o) => plain(o.organizer)).filter(Boolean);
  const description = plain(e.description)
    .split(/\n\s*\n/)
    .map((t) => t.trim())
    .filter(Boolean);
  return html`<div class="detail" data-event-id=${String(e.id)}>
    <p class="marks">
      ${status(ctx, p)}
      ${e.is_recurring ? html`<span part="badge" class="badge recurring">↻ ${ctx.s.recurring}</span>` : nothing}
    </p>
    ${e.event_status_reason ? html`<p class="reason">${plain(e.event_status_reason)}</p>` : nothing}
    <dl>
      <dt>${ctx.s.when}</dt>
      <dd>${ctx.f.when(p, ctx.s.allDay)}</dd>
      ${
        venue
          ? html`<dt>${ctx.s.where}</dt>
              <dd>
                ${venueName(p)}${address(venue) ? html`, ${address(venue)}` : nothing}
                ${
                  address(venue)
                    ? html` <a href=${mapUrl(venue)} target="_blank" rel="noopener">${ctx.s.map}</a>`
                    : nothing
                }
              </dd>`
          : nothing
      }
      ${organizers.length ? html`<dt>${ctx.s.organizer}</dt><dd>${organizers.join(', ')}</dd>` : nothing}
      ${e.cost ? html`<dt>${ctx.s.cost}</dt><dd>${plain(e.cost)}</dd>` : nothing}
    </dl>
    ${description.map((t) => html`<p class="description">${t}</p>`)}
    <p class="actions">
      <a part="action" href=${client.eventFeedUrl(e.id!)} download>${ctx.s.addToCalendar}</a>
      ${e.url ? html`<a part="action" href=${e.url}>${ctx.s.eventPage}</a>` : nothing}
    </p>
  </div>`;
}

function address(v: Venue): string {
  return [v.address, v.city, v.stateprovince || v.province || v.state, v.zip, v.country]
    .map((x) => plain(x).trim())
    .filter(Boolean)
    .join(', ');
}

/** A map search for the venue's address (OpenStreetMap: no account, no tracking script). */
function mapUrl(v: Venue): string {
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(`${plain(v.venue)}, ${address(v)}`)}`;
}
