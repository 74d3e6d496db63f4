// The month grid: weeks of day cells (ARIA grid), all-day and multi-day events as bars in lanes, "+N more" per day.
import { html, nothing, type TemplateResult } from 'lit';
import { classMap } from 'lit/directives/class-map.js';
import { styleMap } from 'lit/directives/style-map.js';
import { type Day, monthOf, weekday } from './dates.ts';
import { barLanes, eventsOn } from './layout.ts';
import { bar, eventClasses, eventExtra, mark, plain, type ViewContext } from './view.ts';

/** Rows a day cell shows before "+N more": bars and timed events together. */
const ROWS = 4;

export function renderMonth(ctx: ViewContext): TemplateResult {
  const weeks: Day[][] = [];
  for (let i = 0; i < ctx.days.length; i += 7) weeks.push(ctx.days.slice(i, i + 7));
  return html`<div role="grid" part="grid" class="month" aria-labelledby="title" @keydown=${ctx.onGridKey}>
    <div role="row" class="weekdays">
      ${weeks[0]!.map(
        (d) => html`<div role="columnheader" part="weekday">
          <span aria-hidden="true">${ctx.f.weekdayShort(d)}</span><span class="sr">${ctx.f.weekdayLong(d)}</span>
        </div>`,
      )}
    </div>
    ${weeks.map((week) => renderWeek(ctx, week))}
  </div>`;
}

function renderWeek(ctx: ViewContext, week: Day[]): TemplateResult {
  const { segments, lanes } = barLanes(week, ctx.placed);
  const shownLanes = Math.min(lanes, ROWS);
  return html`<div role="row" class="week">
    ${week.map((day, col) => {
      const all = eventsOn(ctx.placed, day);
      const bars = segments.filter((s) => s.col === col && s.lane < ROWS);
      const hiddenBars = segments.filter(
        (s) => s.lane >= ROWS && s.col <= col && s.col + s.span > col,
      ).length;
      const timed = all.filter((p) => !p.bar);
      const room = Math.max(0, ROWS - shownLanes);
      // When some must hide, "+N more" takes a row of its own.
      const shown = timed.length + hiddenBars > room ? timed.slice(0, Math.max(0, room - 1)) : timed;
      const more = hiddenBars + timed.length - shown.length;
      const label = `${ctx.f.dayLong(day)}${all.length ? `, ${ctx.s.events(all.length)}` : ''}`;
      return html`<div
        role="gridcell"
        part="day"
        class=${classMap({
          day: true,
          outside: monthOf(day) !== monthOf(ctx.anchor),
          today: day === ctx.today,
          weekend: weekday(day) % 6 === 0,
        })}
        data-day=${day}
        tabindex=${day === ctx.focusDay ? 0 : -1}
        aria-current=${day === ctx.today ? 'date' : nothing}
      >
        <span class="num" aria-hidden="true">${ctx.f.dayNumber(day)}</span><span class="sr">${label}</span>
        <div class="lanes" style=${styleMap({ height: `calc(${shownLanes} * var(--_bar))` })}>
          ${bars.map((s) => bar(ctx, s))}
        </div>
        ${shown.map(
          (p) => html`<button
            type="button"
            tabindex="-1"
            part="event"
            class=${classMap(eventClasses(p))}
            data-event-id=${String(p.event.id)}
            @click=${(e: Event) => ctx.openEvent(p, e.currentTarget as HTMLElement)}
          >
            <span class="time">${ctx.f.time(p.start)}</span> ${mark(p)}${plain(p.event.title)}${eventExtra(ctx, p)}
          </button>`,
        )}
        ${
          more > 0
            ? html`<button
                type="button"
                tabindex="-1"
                part="more"
                class="more"
                @click=${(e: Event) => ctx.openDay(day, e.currentTarget as HTMLElement)}
              >
                ${ctx.s.more(more)}
              </button>`
            : nothing
        }
      </div>`;
    })}
  </div>`;
}
