// What every view is given by the element: the days, the placed events, the words and formats, and what to open.
import { html, nothing, type TemplateResult } from 'lit';
import { classMap } from 'lit/directives/class-map.js';
import { styleMap } from 'lit/directives/style-map.js';
import type { Day } from './dates.ts';
import type { Formats } from './format.ts';
import type { Placed, Segment } from './layout.ts';
import type { Strings } from './strings.ts';

export interface ViewContext {
  s: Strings;
  f: Formats;
  days: Day[];
  anchor: Day;
  today: Day;
  placed: Placed[];
  /** The day cell that takes the focus (roving tabindex). */
  focusDay: Day;
  openEvent(p: Placed, opener: HTMLElement): void;
  openDay(day: Day, opener: HTMLElement): void;
  onGridKey(e: KeyboardEvent): void;
}

/**
 * What a screen reader hears after an event button's visible text (its time and title): when in full, and its marks.
 * A visually hidden part of the button, not an aria-label, so the name starts with what is seen.
 */
export function eventExtra(ctx: ViewContext, p: Placed): TemplateResult {
  const parts = [ctx.f.when(p, ctx.s.allDay)];
  if (p.event.event_status === 'canceled') parts.push(ctx.s.canceled);
  if (p.event.event_status === 'postponed') parts.push(ctx.s.postponed);
  if (p.event.is_recurring) parts.push(ctx.s.recurring);
  return html`<span class="sr">, ${parts.join(', ')}</span>`;
}

/** The classes of an event's button: its status and whether it repeats. */
export function eventClasses(p: Placed): Record<string, boolean> {
  return {
    event: true,
    canceled: p.event.event_status === 'canceled',
    postponed: p.event.event_status === 'postponed',
    recurring: p.event.is_recurring === true,
    featured: p.event.featured === true,
  };
}

/** Decodes the HTML entities WordPress leaves in titles (`&#8217;`), as text: nothing is parsed as markup. */
export function plain(html: string | undefined): string {
  if (!html) return '';
  return new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '';
}

/** A repeat marker for an occurrence of a series, hidden from screen readers (the label says it). */
export function mark(p: Placed): TemplateResult | typeof nothing {
  return p.event.is_recurring ? html`<span class="repeat" aria-hidden="true">↻</span>` : nothing;
}

/** An all-day or multi-day event's bar in its lane (the month grid, the week's all-day row). */
export function bar(ctx: ViewContext, s: Segment): TemplateResult {
  return html`<button
    type="button"
    tabindex="-1"
    part="event bar"
    class=${classMap({ ...eventClasses(s.placed), bar: true, before: s.continuesBefore, after: s.continuesAfter })}
    style=${styleMap({ top: `calc(${s.lane} * var(--_bar))`, width: `calc(${s.span * 100}% - 4px)` })}
    data-event-id=${String(s.placed.event.id)}
    data-first=${s.placed.first}
    data-last=${s.placed.last}
    @click=${(e: Event) => ctx.openEvent(s.placed, e.currentTarget as HTMLElement)}
  >
    ${mark(s.placed)}${plain(s.placed.event.title)}${eventExtra(ctx, s.placed)}
  </button>`;
}
