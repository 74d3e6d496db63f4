// The week and day views: a time axis of 24 hours, a column per day, all-day and multi-day events as bars above.
import { html, nothing, type TemplateResult } from 'lit';
import { classMap } from 'lit/directives/class-map.js';
import { styleMap } from 'lit/directives/style-map.js';
import { barLanes, timedBlocks } from './layout.ts';

import { bar, eventClasses, eventExtra, mark, plain, type ViewContext } from './view.ts';

const HOURS = Array.from({ length: 24 }, (_, h) => h);

export function renderWeek(ctx: ViewContext): TemplateResult {
  const { segments, lanes } = barLanes(ctx.days, ctx.placed);
  const columns = styleMap({ '--_days': String(ctx.days.length) });
  return html`<div
    role="grid"
    part="grid"
    class="timegrid"
    aria-labelledby="title"
    style=${columns}
    @keydown=${ctx.onGridKey}
  >
    <div role="row" class="head">
      <div role="columnheader" class="corner"><span class="sr">${ctx.s.timeZone}</span></div>
      ${ctx.days.map(
        (d) => html`<div
          role="columnheader"
          part="weekday"
          class=${classMap({ today: d === ctx.today })}
        >
          <span aria-hidden="true">${ctx.f.weekdayShort(d)} <span class="num">${ctx.f.dayNumber(d)}</span></span>
          <span class="sr">${ctx.f.dayLong(d)}</span>
        </div>`,
      )}
    </div>
    <div role="row" class="allday">
      <div role="rowheader" class="axis-label">${ctx.s.allDayRow}</div>
      ${ctx.days.map(
        (_d, col) => html`<div role="gridcell" class="allday-cell">
          <div class="lanes" style=${styleMap({ height: `calc(${lanes} * var(--_bar))` })}>
            ${segments.filter((s) => s.col === col).map((s) => bar(ctx, s))}
          </div>
        </div>`,
      )}
    </div>
    <div role="row" class="body">
      <div role="rowheader" class="axis">
        ${HOURS.map((h) => html`<span class="hour">${h === 0 ? nothing : ctx.f.hour(h)}</span>`)}
      </div>
      ${ctx.days.map(
        (day) => html`<div
          role="gridcell"
          part="day"
          class=${classMap({ column: true, today: day === ctx.today })}
          data-day=${day}
          tabindex=${day === ctx.focusDay ? 0 : -1}
          aria-current=${day === ctx.today ? 'date' : nothing}
        >
          <span class="sr">${ctx.f.dayLong(day)}</span>
          ${timedBlocks(
            ctx.placed.filter((p) => !p.bar),
            day,
          ).map(
            (b) => html`<button
                type="button"
                tabindex="-1"
                part="event"
                class=${classMap({ ...eventClasses(b.placed), block: true })}
                style=${styleMap({
                  top: `${(b.from / 1440) * 100}%`,
                  height: `${((b.to - b.from) / 1440) * 100}%`,
                  left: `${(b.column / b.columns) * 100}%`,
                  width: `${100 / b.columns}%`,
                })}
                data-event-id=${String(b.placed.event.id)}
                @click=${(e: Event) => ctx.openEvent(b.placed, e.currentTarget as HTMLElement)}
              >
                <span class="time">${ctx.f.time(b.placed.start)}</span> ${mark(b.placed)}${plain(b.placed.event.title)}${eventExtra(ctx, b.placed)}
              </button>`,
          )}
        </div>`,
      )}
    </div>
  </div>`;
}
