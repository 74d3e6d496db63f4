// <calendar-gateway-view>: the element. Its state (view, date, filters, zone) comes from attributes and the URL; its
// data from the typed client, one list of the visible range at a time; the views draw what it placed.
import { type CalendarClient, createCalendarClient, type Event } from '@calendar-gateway/client';
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { type ChromeContext, type FilterOptions, renderToolbar, VIEWS, type ViewName } from './chrome.ts';
import { eventsBetween, type Filters, upcoming } from './data.ts';
import { addDays, addMonths, type Day, parseDay, today, viewerZone, visibleDays } from './dates.ts';
import { type Opened, renderDialog } from './detail.ts';
import { type Formats, formats } from './format.ts';
import { type Placed, place } from './layout.ts';
import { renderList } from './list.ts';
import { renderMonth } from './month.ts';
import { languageOfRoot, type Strings, stringsFor } from './strings.ts';
import { styles } from './styles.ts';
import { readUrl, writeUrl } from './url-state.ts';
import type { ViewContext } from './view.ts';
import { renderWeek } from './week.ts';

type Status = 'idle' | 'loading' | 'ready' | 'error';

export class CalendarGatewayView extends LitElement {
  static override styles = styles;
  static override properties = {
    src: { type: String },
    view: { type: String, reflect: true },
    date: { type: String },
    categories: { type: String },
    tags: { type: String },
    venue: { type: String },
    search: { type: String },
    timezone: { type: String },
    tz: { type: String },
    noHistory: { type: Boolean, attribute: 'no-history' },
    firstDay: { type: Number, attribute: 'first-day' },
    _events: { state: true },
    _status: { state: true },
    _error: { state: true },
    _focus: { state: true },
    _opened: { state: true },
    _options: { state: true },
    _more: { state: true },
  };

  /** The WordPress REST root of the gateway, e.g. `https://example.com/wp-json` or `…/es/wp-json`. */
  declare src: string;
  declare view: ViewName;
  /** The day (or month, `YYYY-MM`) shown; today when absent. */
  declare date: string | undefined;
  declare categories: string | undefined;
  declare tags: string | undefined;
  declare venue: string | undefined;
  declare search: string | undefined;
  /** The site's IANA zone; without it, "site time" is each event's own wall clock, as TEC shows it. */
  declare timezone: string | undefined;
  /** Whose time the views show: the site's (default) or the viewer's. */
  declare tz: 'site' | 'viewer';
  /** Leave the page's URL alone (state only in attributes). */
  declare noHistory: boolean;
  /** The first day of the week, 0 (Sunday) to 6; the locale's when absent. */
  declare firstDay: number | undefined;
  declare _events: Event[];
  declare _status: Status;
  declare _error: string;
  declare _focus: Day | undefined;
  declare _opened: Opened | undefined;
  declare _options: FilterOptions | undefined;
  declare _more: boolean;

  #client?: { src: string; client: CalendarClient };
  #loaded = '';
  #load = 0;
  #listPage = 1;
  #returnFocus?: HTMLElement;
  #optionsRequested = false;
  #onPop = () => this.#readUrl();

  constructor() {
    super();
    this.src = '';
    this.view = 'month';
    this.tz = 'site';
    this.noHistory = false;
    this._events = [];
    this._status = 'idle';
    this._error = '';
    this._more = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.noHistory) {
      this.#readUrl();
      window.addEventListener('popstate', this.#onPop);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('popstate', this.#onPop);
  }

  #readUrl(): void {
    const state = readUrl(location.search);
    if (state.view && (VIEWS as readonly string[]).includes(state.view)) this.view = state.view as ViewName;
    if (state.date) this.date = state.date;
    this.categories = state.categories ?? this.categories;
    this.tags = state.tags ?? this.tags;
    this.venue = state.venue ?? this.venue;
    this.search = state.search ?? this.search;
    if (state.tz === 'viewer' || state.tz === 'site') this.tz = state.tz;
  }

  /** Writes the state to the URL (a new history entry) unless `no-history`. */
  #pushUrl(): void {
    if (this.noHistory) return;
    const search = writeUrl(location.search, {
      view: this.view,
      date: this.date,
      ...this.filters,
      tz: this.tz === 'viewer' ? 'viewer' : undefined,
    });
    if (search !== location.search)
      history.pushState(null, '', `${location.pathname}${search}${location.hash}`);
  }

  get filters(): Filters {
    return { categories: this.categories, tags: this.tags, venue: this.venue, search: this.search };
  }

  get client(): CalendarClient {
    if (this.#client?.src !== this.src) {
      const baseUrl = `${this.src.replace(/\/+$/, '')}/calendar/events/v1`;
      this.#client = { src: this.src, client: createCalendarClient({ baseUrl }) };
    }
    return this.#client.client;
  }

  /** The language: the element's `lang`, else the API root's (`/es/wp-json`), else the page's. */
  get language(): string {
    return (
      this.getAttribute('lang') ||
      languageOfRoot(this.src) ||
      this.closest<HTMLElement>('[lang]')?.lang ||
      document.documentElement.lang ||
      'en'
    );
  }

  get #zone(): string | undefined {
    return this.tz === 'viewer' ? viewerZone() : this.timezone || undefined;
  }

  get #today(): Day {
    return today(this.#zone);
  }

  get #anchor(): Day {
    return parseDay(this.date) ?? this.#today;
  }

  get #firstDay(): number {
    if (this.firstDay !== undefined && this.firstDay >= 0 && this.firstDay <= 6) return this.firstDay;
    const locale = new Intl.Locale(this.language) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
    };
    const info = locale.getWeekInfo?.();
    if (info) return info.firstDay % 7;
    return this.language.startsWith('en') ? 0 : 1;
  }

  get #days(): Day[] {
    return visibleDays(this.view, this.#anchor, this.#firstDay);
  }

  /** A new range, filter or zone: the view's events are asked for (once per range, whatever else changed). */
  protected override willUpdate(_changed: PropertyValues<this>): void {
    if (!VIEWS.includes(this.view)) this.view = 'month';
    if (!this.src) return;
    const key = JSON.stringify([this.src, this.view, this.#rangeKey(), this.filters, this.#zone]);
    if (key !== this.#loaded) {
      this.#loaded = key;
      void this.#fetch();
    }
  }

  #rangeKey(): string {
    if (this.view === 'list') return this.#anchor;
    const days = this.#days;
    return `${days[0]}/${days[days.length - 1]}`;
  }

  async #fetch(append = false): Promise<void> {
    const load = ++this.#load;
    this._status = 'loading';
    try {
      let events: Event[];
      if (this.view === 'list') {
        if (!append) this.#listPage = 1;
        const page = await upcoming(this.client, this.#anchor, this.filters, this.#listPage);
        events = append ? [...this._events, ...page.events] : page.events;
        if (load === this.#load) this._more = page.more;
      } else {
        const days = this.#days;
        const margin = this.tz === 'viewer' ? 1 : 0;
        events = await eventsBetween(this.client, days[0]!, days[days.length - 1]!, this.filters, margin);
      }
      if (load !== this.#load) return;
      this._events = events;
      this._status = 'ready';
    } catch (err) {
      if (load !== this.#load) return;
      const e = err as { message?: string; code?: string; status?: number };
      const detail = e.code && e.status ? ` (${e.code}, HTTP ${e.status})` : '';
      this._error = `${e.message ?? String(err)}${detail}`;
      this._status = 'error';
    }
  }

  #retry = () => {
    this.#loaded = '';
    this.requestUpdate();
  };

  #go = (step: -1 | 0 | 1) => {
    const anchor = this.#anchor;
    let next: Day;
    if (step === 0) next = this.#today;
    else if (this.view === 'month') next = addMonths(anchor, step);
    else next = addDays(anchor, step * (this.view === 'day' ? 1 : 7));
    this.date = this.view === 'month' ? next.slice(0, 7) : next;
    this._focus = step === 0 ? next : undefined;
    this.#pushUrl();
  };

  #setView = (view: ViewName) => {
    this.view = view;
    this.#pushUrl();
  };

  #setTz = (tz: 'site' | 'viewer') => {
    this.tz = tz;
    this.#pushUrl();
  };

  #setFilters = (f: Filters) => {
    this.categories = f.categories;
    this.tags = f.tags;
    this.venue = f.venue;
    this.search = f.search;
    this.#pushUrl();
  };

  /** The filters' choices, asked for once, when the filters are first opened (a month view alone needs none). */
  #loadOptions = async () => {
    if (this.#optionsRequested) return;
    this.#optionsRequested = true;
    const c = this.client;
    try {
      const [categories, tags, venues] = await Promise.all([
        c.list('/categories', { per_page: 50 }),
        c.list('/tags', { per_page: 50 }),
        c.list('/venues', { per_page: 50 }),
      ]);
      this._options = { categories: categories.items, tags: tags.items, venues: venues.items };
    } catch {
      this.#optionsRequested = false;
    }
  };

  #openEvent = (p: Placed, opener: HTMLElement) => this.#open({ event: p }, opener);
  #openDay = (day: Day, opener: HTMLElement) => this.#open({ day }, opener);

  async #open(what: Opened, opener: HTMLElement): Promise<void> {
    const dialog = this.renderRoot.querySelector('dialog');
    if (!dialog?.open) this.#returnFocus = opener;
    this._opened = what;
    await this.updateComplete;
    if (dialog && !dialog.open) dialog.showModal();
    dialog?.querySelector<HTMLElement>('.close')?.focus();
  }

  #close = () => this.renderRoot.querySelector('dialog')?.close();

  #onDialogClose = () => {
    this._opened = undefined;
    const back = this.#returnFocus;
    this.#returnFocus = undefined;
    back?.focus();
  };

  /** Arrows move between days (across months and weeks), Home/End to the week's ends, Enter opens the day. */
  #onGridKey = (e: KeyboardEvent) => {
    const cell = (e.target as HTMLElement).closest<HTMLElement>('[role="gridcell"][data-day]');
    if (!cell) return;
    const day = cell.dataset.day!;
    if ((e.key === 'Enter' || e.key === ' ') && e.target === cell) {
      e.preventDefault();
      this.#openDay(day, cell);
      return;
    }
    const wide = this.view === 'day' ? 1 : 7;
    const steps: Record<string, number> = {
      ArrowLeft: -1,
      ArrowRight: 1,
      ArrowUp: -wide,
      ArrowDown: wide,
      Home: -((new Date(`${day}T12:00:00Z`).getUTCDay() - this.#firstDay + 7) % 7),
      PageUp: -wide * (this.view === 'month' ? 4 : 1),
      PageDown: wide * (this.view === 'month' ? 4 : 1),
    };
    steps.End = steps.Home! + 6;
    const step = steps[e.key];
    if (step === undefined) return;
    e.preventDefault();
    const next = addDays(day, step);
    this._focus = next;
    if (!this.#days.includes(next)) {
      this.date = this.view === 'month' ? next.slice(0, 7) : next;
      this.#pushUrl();
    }
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>(`[role="gridcell"][data-day="${next}"]`)?.focus(),
    );
  };

  #title(f: Formats, s: Strings, days: Day[]): string {
    if (this.view === 'month') return f.month(this.#anchor);
    if (this.view === 'day') return f.dayLong(this.#anchor);
    if (this.view === 'week') return f.range(days[0]!, days[days.length - 1]!);
    return s.upcoming;
  }

  protected override render() {
    const s = stringsFor(this.language);
    const f = formats(this.language);
    const days = this.view === 'list' ? [] : this.#days;
    const zone = this.#zone;
    const placed = this._events.map((e) => place(e, zone)).filter((p): p is Placed => p !== undefined);
    const focusDay =
      this._focus && days.includes(this._focus)
        ? this._focus
        : days.includes(this.#today)
          ? this.#today
          : (days.find((d) => d.startsWith(this.#anchor.slice(0, 7))) ?? days[0]!);
    const ctx: ViewContext = {
      s,
      f,
      days,
      anchor: this.#anchor,
      today: this.#today,
      placed,
      focusDay,
      openEvent: this.#openEvent,
      openDay: this.#openDay,
      onGridKey: this.#onGridKey,
    };
    const chrome: ChromeContext = {
      s,
      view: this.view,
      title: this.#title(f, s, days),
      filters: this.filters,
      tz: this.tz,
      options: this._options,
      client: this.client,
      go: this.#go,
      setView: this.#setView,
      setTz: this.#setTz,
      setFilters: this.#setFilters,
      loadOptions: this.#loadOptions,
    };
    const empty = this._status === 'ready' && placed.length === 0;
    return html`<div part="container" class="calendar" lang=${this.language} aria-busy=${String(this._status === 'loading')}>
      ${renderToolbar(chrome)}
      <div role="status" part="status" class="status">
        ${this._status === 'loading' ? s.loading : empty ? (this.view === 'list' ? s.emptyList : s.empty) : nothing}
      </div>
      ${
        this._status === 'error'
          ? html`<div role="alert" part="error" class="error">
              ${s.error(this._error)}
              <button type="button" part="button" @click=${this.#retry}>${s.retry}</button>
            </div>`
          : nothing
      }
      ${
        this.view === 'month'
          ? renderMonth(ctx)
          : this.view === 'list'
            ? renderList(ctx, this._more ? () => this.#more() : undefined)
            : renderWeek(ctx)
      }
      <dialog part="dialog" aria-labelledby="dialog-title" @close=${this.#onDialogClose}>
        ${this._opened ? renderDialog(ctx, this._opened, this.client, this.#close) : nothing}
      </dialog>
    </div>`;
  }

  /** A week or day view opens scrolled to the morning (or its first event), not at midnight. */
  protected override updated(changed: PropertyValues): void {
    if (!changed.has('view') && !changed.has('_events')) return;
    const grid = this.renderRoot.querySelector<HTMLElement>('.timegrid');
    const body = grid?.querySelector<HTMLElement>('.body');
    if (!grid || !body) return;
    const blocks = Array.from(grid.querySelectorAll<HTMLElement>('.block'), (b) => b.offsetTop);
    const hour = body.offsetHeight / 24;
    // The head and the all-day row stay on top (sticky): the hour shown first is the one right below them.
    const head = Array.from(
      grid.querySelectorAll<HTMLElement>('.head, .allday'),
      (r) => r.offsetHeight,
    ).reduce((a, b) => a + b, 0);
    const y = Math.max(0, Math.min(8 * hour, blocks.length ? Math.min(...blocks) - hour / 2 : 8 * hour));
    grid.scrollTop = body.offsetTop - head + y;
  }

  #more(): void {
    this.#listPage++;
    void this.#fetch(true);
  }
}
