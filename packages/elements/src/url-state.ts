// The view, its date and its filters in the page's URL (prefixed `cg_`, away from WordPress's own `tag`, `s`…), so a
// filtered view can be shared and Back goes back.
import type { Filters } from './data.ts';

export interface UrlState extends Filters {
  view?: string;
  date?: string;
  tz?: string;
}

const KEYS: Record<keyof UrlState, string> = {
  view: 'cg_view',
  date: 'cg_date',
  categories: 'cg_category',
  tags: 'cg_tag',
  venue: 'cg_venue',
  search: 'cg_search',
  tz: 'cg_tz',
};

/** The state a URL's query holds (only the keys present). */
export function readUrl(search: string): UrlState {
  const q = new URLSearchParams(search);
  const state: UrlState = {};
  for (const [k, name] of Object.entries(KEYS) as Array<[keyof UrlState, string]>) {
    const v = q.get(name);
    if (v !== null) state[k] = v;
  }
  return state;
}

/** The query of `search` with the state written in (empty values removed), other parameters kept. */
export function writeUrl(search: string, state: UrlState): string {
  const q = new URLSearchParams(search);
  for (const [k, name] of Object.entries(KEYS) as Array<[keyof UrlState, string]>) {
    const v = state[k];
    if (v) q.set(name, v);
    else q.delete(name);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
