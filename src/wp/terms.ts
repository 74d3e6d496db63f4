// A short-lived copy of a taxonomy's terms: resolves ids, slugs and names, and expands category children.
import { LRUCache } from 'lru-cache';
import { EXACT_CLOCK } from '../cache/count-bound.ts';
import { ApiError } from '../http/errors.ts';
import type { TaxonomySource } from '../mapping/schema.ts';
import type { WpClient } from './client.ts';
import type { WpTerm } from './types.ts';

export class TermCache {
  private readonly wp: WpClient;
  private readonly cache: LRUCache<string, WpTerm[]>;

  constructor(wp: WpClient, ttlMs = 30_000) {
    this.wp = wp;
    this.cache = new LRUCache<string, WpTerm[]>({
      max: 64,
      ttl: ttlMs,
      ...EXACT_CLOCK,
      allowStale: true,
      fetchMethod: async (key) => {
        const [restBase, language] = key.split('|') as [string, string];
        return this.wp.all<WpTerm>({
          path: `/wp/v2/${restBase}`,
          query: { hide_empty: false, _fields: 'id,name,slug,parent,count,description,link,taxonomy' },
          as: 'anonymous',
          language,
        });
      },
    });
  }

  async all(tax: TaxonomySource, language: string): Promise<WpTerm[]> {
    const key = `${tax.restBase}|${language}`;
    try {
      return (await this.cache.fetch(key)) ?? [];
    } catch (err) {
      // An invalidation while the load ran aborted it (lru-cache rejects its waiters): load the new state instead.
      if (err instanceof ApiError) throw err;
      return (await this.cache.fetch(key)) ?? [];
    }
  }

  /** Resolves ids or slugs (slug tried first, as TEC does); returns the unknown ones separately. */
  async resolve(
    tax: TaxonomySource,
    language: string,
    values: string[],
  ): Promise<{ ids: number[]; unknown: string[] }> {
    const terms = await this.all(tax, language);
    const ids: number[] = [];
    const unknown: string[] = [];
    for (const v of values) {
      const t =
        terms.find((x) => x.slug === v) ??
        (/^\d+$/.test(v) ? terms.find((x) => x.id === Number(v)) : undefined);
      if (t) ids.push(t.id);
      else unknown.push(v);
    }
    return { ids, unknown };
  }

  /** The given ids plus all their descendants (WordPress's `include_children`). */
  async withChildren(tax: TaxonomySource, language: string, ids: number[]): Promise<number[]> {
    if (!tax.hierarchical) return ids;
    const terms = await this.all(tax, language);
    const out = new Set(ids);
    let grew = true;
    while (grew) {
      grew = false;
      for (const t of terms) {
        if (t.parent && out.has(t.parent) && !out.has(t.id)) {
          out.add(t.id);
          grew = true;
        }
      }
    }
    return [...out];
  }

  invalidate(tax?: TaxonomySource): void {
    if (!tax) {
      this.cache.clear();
      return;
    }
    for (const key of [...this.cache.keys()]) if (key.startsWith(`${tax.restBase}|`)) this.cache.delete(key);
  }
}
