// The element's controls around a view: navigation, the view switch, filters, the time zone switch, Subscribe.
import type { CalendarClient, Term, Venue } from '@calendar-gateway/client';
import { html, nothing, type TemplateResult } from 'lit';
import { type Filters, filterQuery, googleSubscribeUrl } from './data.ts';
import type { Strings } from './strings.ts';
import { plain } from './view.ts';

export const VIEWS = ['month', 'week', 'day', 'list'] as const;
export type ViewName = (typeof VIEWS)[number];

export interface FilterOptions {
  categories: Term[];
  tags: Term[];
  venues: Venue[];
}

export interface ChromeContext {
  s: Strings;
  view: ViewName;
  title: string;
  filters: Filters;
  tz: 'site' | 'viewer';
  options?: FilterOptions;
  client: CalendarClient;
  go(step: -1 | 0 | 1): void;
  setView(view: ViewName): void;
  setTz(tz: 'site' | 'viewer'): void;
  setFilters(filters: Filters): void;
  loadOptions(): void;
}

export function renderToolbar(c: ChromeContext): TemplateResult {
  const s = c.s;
  return html`<div part="toolbar" class="toolbar">
    <div class="nav">
      ${
        c.view === 'list'
          ? nothing
          : html`<button type="button" part="button" class="prev" @click=${() => c.go(-1)} aria-label=${s.previous}>
              ‹
            </button>`
      }
      <button type="button" part="button" class="today" @click=${() => c.go(0)}>${s.today}</button>
      ${
        c.view === 'list'
          ? nothing
          : html`<button type="button" part="button" class="next" @click=${() => c.go(1)} aria-label=${s.next}>
              ›
            </button>`
      }
    </div>
    <h2 part="title" id="title" class="title" aria-live="polite">${c.title}</h2>
    <div class="views" role="group" aria-label=${s.views}>
      ${VIEWS.map(
        (v) => html`<button
          type="button"
          part="button view-button"
          data-view=${v}
          aria-pressed=${String(c.view === v)}
          @click=${() => c.setView(v)}
        >
          ${s[v]}
        </button>`,
      )}
    </div>
  </div>
  <div class="options">
    ${renderFilters(c)}
    <div class="zone" role="group" aria-label=${s.timeZone}>
      <span aria-hidden="true">${s.timeZone}:</span>
      <button type="button" part="button" data-tz="site" aria-pressed=${String(c.tz === 'site')} @click=${() => c.setTz('site')}>
        ${s.siteZone}
      </button>
      <button type="button" part="button" data-tz="viewer" aria-pressed=${String(c.tz === 'viewer')} @click=${() => c.setTz('viewer')}>
        ${s.viewerZone}
      </button>
    </div>
    ${renderSubscribe(c)}
  </div>`;
}

function renderFilters(c: ChromeContext): TemplateResult {
  const s = c.s;
  const f = c.filters;
  const submit = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget as HTMLFormElement);
    const get = (k: string) => String(data.get(k) ?? '') || undefined;
    c.setFilters({
      categories: get('categories'),
      tags: get('tags'),
      venue: get('venue'),
      search: get('search'),
    });
  };
  const select = (name: keyof Filters, label: string, items: Array<{ value: string; label: string }>) => {
    const current = f[name];
    const all =
      current && !items.some((i) => i.value === current)
        ? [{ value: current, label: current }, ...items]
        : items;
    return html`<label>
      <span>${label}</span>
      <select name=${name} part="select">
        <option value="">${s.any}</option>
        ${all.map((i) => html`<option value=${i.value} ?selected=${i.value === current}>${i.label}</option>`)}
      </select>
    </label>`;
  };
  const terms = (list: Term[] | undefined) =>
    (list ?? []).map((t) => ({ value: String(t.slug ?? t.id), label: plain(t.name) }));
  const active = Object.values(filterQuery(f)).length;
  return html`<details part="filters" class="filters" @toggle=${(e: Event) => (e.currentTarget as HTMLDetailsElement).open && c.loadOptions()}>
    <summary part="button">${s.filters}${active ? ` (${active})` : ''}</summary>
    <form @submit=${submit} class="filter-form">
      ${select('categories', s.category, terms(c.options?.categories))}
      ${select('tags', s.tag, terms(c.options?.tags))}
      ${select(
        'venue',
        s.venue,
        (c.options?.venues ?? []).map((v) => ({ value: String(v.id), label: plain(v.venue) })),
      )}
      <label>
        <span>${s.search}</span>
        <input type="search" name="search" part="input" .value=${f.search ?? ''} />
      </label>
      <div class="filter-actions">
        <button type="submit" part="button">${s.apply}</button>
        <button type="button" part="button" @click=${() => c.setFilters({})}>${s.clear}</button>
      </div>
    </form>
  </details>`;
}

function renderSubscribe(c: ChromeContext): TemplateResult {
  const s = c.s;
  const query = filterQuery(c.filters);
  const webcal = c.client.feedUrl(query, { webcal: true });
  const https = c.client.feedUrl(query);
  return html`<details part="subscribe" class="subscribe">
    <summary part="button">${s.subscribe}</summary>
    <ul>
      <li><a part="action" class="webcal" href=${webcal}>${s.subscribeApple}</a></li>
      <li>
        <a part="action" class="google" href=${googleSubscribeUrl(webcal)} target="_blank" rel="noopener">${s.subscribeGoogle}</a>
      </li>
      <li>
        <label>
          <span>${s.feedUrl}</span>
          <input part="input" class="feed" readonly .value=${https} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} />
        </label>
      </li>
    </ul>
  </details>`;
}
