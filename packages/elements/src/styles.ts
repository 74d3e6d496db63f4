// The element's styles: every colour, font, radius and spacing from a `--cg-*` custom property, light and dark.
import { css } from 'lit';

export const styles = css`
  :host {
    --_bg: var(--cg-bg, #ffffff);
    --_fg: var(--cg-fg, #1a1a1a);
    --_muted: var(--cg-muted, #575757);
    --_border: var(--cg-border, #d4d4d8);
    --_accent: var(--cg-accent, #1d4ed8);
    --_accent-fg: var(--cg-accent-fg, #ffffff);
    --_event-bg: var(--cg-event-bg, #dbeafe);
    --_event-fg: var(--cg-event-fg, #1e3a8a);
    --_today: var(--cg-today-bg, #fef9c3);
    --_outside: var(--cg-outside-bg, #f4f4f5);
    --_danger: var(--cg-danger, #b91c1c);
    --_focus: var(--cg-focus, #c2410c);
    --_radius: var(--cg-radius, 6px);
    --_space: calc(0.25rem * var(--cg-density, 1));
    --_bar: calc(1.4rem * var(--cg-density, 1));
    --_hour: calc(3rem * var(--cg-density, 1));
    display: block;
    color-scheme: light dark;
    font-family: var(--cg-font, system-ui, sans-serif);
    font-size: var(--cg-font-size, 0.95rem);
    color: var(--_fg);
    background: var(--_bg);
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_bg: var(--cg-bg, #111827);
      --_fg: var(--cg-fg, #f3f4f6);
      --_muted: var(--cg-muted, #a1a1aa);
      --_border: var(--cg-border, #3f3f46);
      --_accent: var(--cg-accent, #93c5fd);
      --_accent-fg: var(--cg-accent-fg, #111827);
      --_event-bg: var(--cg-event-bg, #1e3a8a);
      --_event-fg: var(--cg-event-fg, #e0ecff);
      --_today: var(--cg-today-bg, #3f3a12);
      --_outside: var(--cg-outside-bg, #0b1120);
      --_danger: var(--cg-danger, #fca5a5);
      --_focus: var(--cg-focus, #fdba74);
    }
  }
  * {
    box-sizing: border-box;
  }
  button,
  summary,
  select,
  input {
    font: inherit;
    color: inherit;
  }
  button,
  summary {
    cursor: pointer;
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 1px;
  }
  @media (prefers-reduced-motion: no-preference) {
    .event,
    button {
      transition: background-color 120ms ease-out;
    }
  }
  .sr {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  .toolbar,
  .options {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: calc(var(--_space) * 2);
    margin-bottom: calc(var(--_space) * 2);
  }
  .title {
    flex: 1;
    margin: 0;
    font-size: 1.3em;
  }
  .title::first-letter,
  .list h3::first-letter,
  .dialog-head h2::first-letter {
    text-transform: uppercase;
  }
  [part~='button'] {
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: var(--_space) calc(var(--_space) * 3);
  }
  [part~='button'][aria-pressed='true'] {
    background: var(--_accent);
    color: var(--_accent-fg);
    border-color: var(--_accent);
  }
  .zone span {
    color: var(--_muted);
  }
  details {
    position: relative;
  }
  details > form,
  details > ul {
    position: absolute;
    z-index: 3;
    top: calc(100% + var(--_space));
    left: 0;
    min-width: 18rem;
    display: grid;
    gap: calc(var(--_space) * 2);
    margin: 0;
    padding: calc(var(--_space) * 3);
    list-style: none;
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: 0 4px 16px rgb(0 0 0 / 0.2);
  }
  label {
    display: grid;
    gap: var(--_space);
  }
  label > span {
    color: var(--_muted);
    font-size: 0.9em;
  }
  select,
  input {
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: var(--_space);
  }
  a {
    color: var(--_accent);
  }
  .status:empty {
    display: none;
  }
  .status,
  .error {
    margin: var(--_space) 0 calc(var(--_space) * 2);
    color: var(--_muted);
  }
  .error {
    color: var(--_danger);
  }
  .month {
    display: grid;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .weekdays,
  .week {
    display: grid;
    grid-template-columns: repeat(7, minmax(0, 1fr));
  }
  [role='columnheader'] {
    padding: var(--_space);
    text-align: center;
    color: var(--_muted);
    font-weight: 600;
    text-transform: capitalize;
  }
  .day {
    position: relative;
    min-height: calc(6.5rem * var(--cg-density, 1) + var(--_bar));
    padding-bottom: var(--_space);
    border-top: 1px solid var(--_border);
    border-left: 1px solid var(--_border);
    min-width: 0;
  }
  .week > .day:first-child {
    border-left: 0;
  }
  .day.outside {
    background: var(--_outside);
  }
  .day.today .num {
    background: var(--_accent);
    color: var(--_accent-fg);
    border-radius: 999px;
  }
  .num {
    display: inline-block;
    min-width: 1.8em;
    margin: var(--_space);
    text-align: center;
  }
  .lanes {
    position: relative;
  }
  .event {
    display: block;
    width: calc(100% - 4px);
    margin: 1px 2px;
    padding: 0 var(--_space);
    overflow: hidden;
    white-space: nowrap;
    text-overflow: ellipsis;
    text-align: start;
    border: 0;
    border-radius: calc(var(--_radius) / 2);
    background: transparent;
    line-height: calc(var(--_bar) - 2px);
    font-size: 0.85em;
  }
  .event:hover {
    background: var(--_event-bg);
  }
  .event.bar,
  .event.block {
    position: absolute;
    z-index: 1;
    background: var(--_event-bg);
    color: var(--_event-fg);
  }
  .event.bar {
    height: calc(var(--_bar) - 2px);
  }
  .event.before {
    border-start-start-radius: 0;
    border-end-start-radius: 0;
  }
  .event.after {
    border-start-end-radius: 0;
    border-end-end-radius: 0;
  }
  .event.canceled .title,
  .event.canceled:not(.row) {
    text-decoration: line-through;
  }
  .event.postponed {
    font-style: italic;
  }
  .time {
    color: inherit;
    opacity: 0.85;
  }
  .repeat {
    margin-inline-end: 0.25em;
  }
  .more {
    display: block;
    margin: 0 2px;
    border: 0;
    background: transparent;
    color: var(--_accent);
    font-size: 0.85em;
    text-decoration: underline;
  }
  .timegrid {
    position: relative;
    display: grid;
    max-height: 40rem;
    overflow: auto;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .timegrid > [role='row'] {
    display: grid;
    grid-template-columns: 4rem repeat(var(--_days), minmax(0, 1fr));
  }
  .timegrid .head {
    position: sticky;
    top: 0;
    z-index: 2;
    background: var(--_bg);
    border-bottom: 1px solid var(--_border);
  }
  .timegrid .head .today .num {
    background: var(--_accent);
    color: var(--_accent-fg);
    border-radius: 999px;
  }
  .timegrid .head {
    height: 2.5rem;
    align-items: center;
  }
  .allday {
    position: sticky;
    top: 2.5rem;
    z-index: 2;
    background: var(--_bg);
    border-bottom: 1px solid var(--_border);
  }
  .allday-cell {
    border-left: 1px solid var(--_border);
    min-height: var(--_bar);
  }
  .axis-label,
  .axis {
    color: var(--_muted);
    font-size: 0.8em;
    text-align: end;
    padding-inline-end: var(--_space);
  }
  .axis {
    display: grid;
    grid-template-rows: repeat(24, var(--_hour));
  }
  .hour {
    transform: translateY(-0.6em);
  }
  .column {
    position: relative;
    height: calc(24 * var(--_hour));
    border-left: 1px solid var(--_border);
    background: repeating-linear-gradient(
      to bottom,
      transparent 0,
      transparent calc(var(--_hour) - 1px),
      var(--_border) calc(var(--_hour) - 1px),
      var(--_border) var(--_hour)
    );
  }
  .column.today {
    background-color: var(--_today);
  }
  .event.block {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    justify-content: flex-start;
    margin: 0;
    white-space: normal;
    line-height: 1.2;
    padding: 2px var(--_space);
    border: 1px solid var(--_bg);
  }
  .list section + section {
    margin-top: calc(var(--_space) * 4);
  }
  .list h3 {
    margin: 0 0 var(--_space);
    font-size: 1em;
    border-bottom: 1px solid var(--_border);
  }
  .list ul,
  .day-list {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .event.row {
    display: grid;
    grid-template-columns: 6rem 1fr auto;
    gap: calc(var(--_space) * 2);
    width: 100%;
    padding: calc(var(--_space) * 1.5) var(--_space);
    white-space: normal;
    font-size: 1em;
    line-height: 1.3;
  }
  .event.row .where {
    grid-column: 2 / -1;
    color: var(--_muted);
  }
  .event.row .where:empty {
    display: none;
  }
  .badge {
    display: inline-block;
    padding: 0 var(--_space);
    border-radius: var(--_radius);
    font-size: 0.8em;
    border: 1px solid currentColor;
  }
  .badge.canceled {
    color: var(--_danger);
  }
  .load-more {
    margin-top: calc(var(--_space) * 3);
  }
  dialog {
    width: min(36rem, 92vw);
    max-height: 85vh;
    color: var(--_fg);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: calc(var(--_space) * 4);
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.45);
  }
  .dialog-head {
    display: flex;
    align-items: start;
    gap: calc(var(--_space) * 2);
  }
  .dialog-head h2 {
    flex: 1;
    margin: 0;
    font-size: 1.2em;
  }
  .close {
    border: 0;
    background: transparent;
    font-size: 1.2em;
  }
  dl {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: var(--_space) calc(var(--_space) * 3);
  }
  dt {
    color: var(--_muted);
  }
  dd {
    margin: 0;
  }
  .actions {
    display: flex;
    gap: calc(var(--_space) * 4);
  }
  @media (max-width: 40rem) {
    .day {
      min-height: 4rem;
    }
    .event .time {
      display: none;
    }
  }
`;
