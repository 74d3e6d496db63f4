// A short-lived list of every venue's or organizer's facets (wp/v2 cannot search meta): lists page from it.
import type { LinkedKind } from '../contract/linked.ts';
import { RECORDS } from '../contract/records.ts';
import { modifiedAfter } from '../index/sync.ts';
import { type FieldValue, readRecord, wpFieldsOf } from '../mapping/codec.ts';
import type { Mapping } from '../mapping/schema.ts';
import { blanksOf } from '../serialize/protect.ts';
import { plainText } from '../text/plain.ts';
import type { WpClient } from '../wp/client.ts';
import { maySaveStill, SAVE_SETTLE_MS } from '../wp/saves.ts';
import type { WpPost } from '../wp/types.ts';

export interface LinkedFacets {
  id: number;
  status: string;
  slug: string;
  /** Publication date, site-local `Y-m-d H:i:s` (lists are ordered by it, newest first). */
  date: string;
  /** Name as stored (raw), for duplicate detection. */
  name: string;
  /** Raw stored values of the mapped text fields, for duplicate detection. */
  values: Record<string, string>;
  /** Everything TEC's search LIKE-matches, lower-cased, one field per line. */
  searchText: string;
  /** Author's user id (0 when unknown): others' drafts and private records are listed only to editors. */
  author: number;
  /** Has a post password: its search matches `openText` only. */
  protected: boolean;
  /**
   * The searched fields a password does not blank (the name), lower-cased: all a protected record's search may
   * match, whoever asks. No list shows the rest to anyone (wp/v2's view context blanks it even for editors).
   */
  openText: string;
  /** A venue's coordinates when both are stored (src/geo/), else null. */
  point?: { lat: number; lng: number } | null;
}

/** Statuses crawled: everything an editor could list, plus trash (so trashed ids still exist for 410s). */
const CRAWL_STATUSES = 'publish,future,draft,pending,private,trash';

/** Fields TEC's venue/organizer search looks at besides title, content and excerpt (tec-contract.md §4). */
export const SEARCH_FIELDS: Record<LinkedKind, string[]> = {
  venue: ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  organizer: ['phone', 'email', 'website'],
};

const str = (v: FieldValue | undefined): string => (v === null || v === undefined ? '' : String(v));

/** The facets of one venue/organizer post read with `context=edit` (raw text). Pure. */
export function linkedFacetsOf(kind: LinkedKind, post: WpPost, mapping: Mapping): LinkedFacets {
  const rec = readRecord(mapping, kind, post) as Record<string, FieldValue>;
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(rec)) if (typeof v === 'string') values[k] = v;
  const name = str(rec[kind]);
  const searched = [kind, 'description', 'excerpt', ...SEARCH_FIELDS[kind]];
  const texts = searched.map((f) => str(rec[f]));
  const blanked = blanksOf(RECORDS[kind]);
  return {
    id: post.id,
    status: post.status,
    slug: post.slug,
    date: str(rec.date) || (typeof post.date === 'string' ? post.date.replace('T', ' ') : ''),
    name,
    values,
    // Raw HTML is matched like a LIKE on post_content would; its plain text is added so visible words match too.
    searchText: [...texts, plainText(str(rec.description))].join('\n').toLowerCase(),
    author: Number(rec.author ?? post.author) || 0,
    protected: str(rec.password ?? (post.password as FieldValue | undefined)) !== '',
    openText: searched
      .filter((f) => !blanked.has(f))
      .map((f) => str(rec[f]))
      .join('\n')
      .toLowerCase(),
    point:
      typeof rec.geo_lat === 'number' && typeof rec.geo_lng === 'number'
        ? { lat: rec.geo_lat, lng: rec.geo_lng }
        : null,
  };
}

interface Entry {
  /** When the last full crawl started. */
  at: number;
  items: Promise<Map<number, LinkedFacets>>;
  /** Ids named by a change since: re-read (only them) before the next answer. */
  pending: Set<number>;
  /** When WordPress was last asked what changed (`modified_after`). */
  checkedAt: number;
  checking?: Promise<void>;
  /**
   * The `modified_gmt` of each record the last checks found: the overlap finds a change again for 10 s, and only
   * a new version of it is a change (else every read in that window drops the cached lists and purges the CDN).
   */
  found?: Map<number, string>;
  /**
   * While refreshing crawls run: each id re-read, with the tick its re-read began at (from `ticks`). A copy re-read
   * after a crawl began is newer than that crawl's answer.
   */
  reread: Map<number, number>;
  ticks: number;
  crawls: number;
}

/** Marks a found stamp to be found once more (`#checkAgain`). */
const AGAIN = '~again';

/** How far back each `modified_after` check reaches before the previous one (saves within the same second). */
const CHECK_OVERLAP_MS = 10_000;

/** What the catalog reads WordPress with (part of Deps). */
export interface CatalogDeps {
  wp: WpClient;
  mapping: Mapping;
}

/**
 * Every venue's or organizer's facets, per kind and language (one catalog per gateway, in its Deps). Kept until
 * a change names it: a write through the gateway, a change notification or another instance's invalidation (tags
 * `venue:<id>` re-read that one record, `list:venue` everything). A long maximum age is the safety net for changes
 * nobody announced: past it the catalog is served as it is while a crawl refreshes it.
 */
export class LinkedCatalog {
  readonly #deps: CatalogDeps;
  readonly #maxAgeMs: number;
  readonly #checkMs: number;
  readonly #entries = new Map<string, Entry>();

  readonly #onChange: (kind: LinkedKind, ids: number[]) => void;

  constructor(
    deps: CatalogDeps,
    options: {
      maxAgeMs?: number;
      /** How long a check of what changed holds before a use asks again. Default 0: every use (coalesced). */
      checkMs?: number;
      /** Records found changed upstream by a check (the response cache drops their answers). */
      onChange?: (kind: LinkedKind, ids: number[]) => void;
    } = {},
  ) {
    this.#deps = deps;
    this.#onChange = options.onChange ?? (() => {});
    this.#maxAgeMs = options.maxAgeMs ?? 300_000;
    this.#checkMs = options.checkMs ?? 0;
  }

  /** Every venue/organizer (all statuses); concurrent callers share one crawl. */
  async all(kind: LinkedKind, language: string): Promise<Map<number, LinkedFacets>> {
    const key = `${kind}|${language}`;
    let entry = this.#entries.get(key);
    if (!entry) entry = this.#recrawl(key, kind, language);
    else if (Date.now() - entry.at > this.#maxAgeMs) {
      // Serve what is known; the crawl replaces it when done.
      const stale = entry;
      const begun = stale.ticks;
      stale.crawls++;
      const fresh = this.#crawl(kind, language);
      stale.at = Date.now();
      const done = () => {
        if (--stale.crawls === 0) stale.reread.clear();
      };
      fresh
        .then((items) => {
          if (this.#entries.get(key) !== stale) return done();
          // After any re-read still out; what was re-read since the crawl began stays as re-read (present or gone):
          // the crawl may have read it before the change the re-read was for, and no check finds that stamp again.
          const merged = stale.items.then((current) => {
            for (const [id, tick] of stale.reread) {
              if (tick <= begun) continue;
              const copy = current.get(id);
              if (copy) items.set(id, copy);
              else items.delete(id);
            }
            done();
            this.#loaded.set(key, items);
            return items;
          });
          stale.items = merged;
          merged.catch(() => {
            if (this.#entries.get(key) === stale) this.#entries.delete(key);
          });
        })
        .catch(done);
    }
    if (this.#loaded.has(key) && Date.now() - entry.checkedAt >= this.#checkMs)
      await this.#check(kind, language, entry);
    if (entry.pending.size > 0) {
      const ids = [...entry.pending];
      entry.pending.clear();
      const current = entry;
      if (current.crawls > 0) {
        const tick = ++current.ticks;
        for (const id of ids) current.reread.set(id, tick);
      }
      // Chained at once: a crawl's answer landing meanwhile is merged before or after it, never lost under it.
      current.items = current.items.then((held) => this.#refetch(kind, language, held, ids));
      current.items.catch(() => {
        if (this.#entries.get(key) === current) this.#entries.delete(key);
      });
    }
    return entry.items;
  }

  /**
   * Whether each record stores an excerpt (wp/v2's view context invents one), without waiting for a crawl: from
   * the catalog when loaded, else from one edit-context request for these ids.
   */
  async storedExcerpts(kind: LinkedKind, language: string, ids: number[]): Promise<Map<number, boolean>> {
    const key = `${kind}|${language}`;
    const entry = this.#entries.get(key);
    const loaded = this.#loaded.get(key);
    let learnt = this.#excerpts.get(key);
    if (!learnt) {
      learnt = new Map();
      this.#excerpts.set(key, learnt);
    }
    const out = new Map<number, boolean>();
    const unknown: number[] = [];
    for (const id of ids) {
      const f = entry?.pending.has(id) ? undefined : loaded?.get(id);
      const known = f ? f.values.excerpt !== '' : learnt.get(id);
      if (known !== undefined) out.set(id, known);
      else unknown.push(id);
    }
    const { wp, mapping } = this.#deps;
    for (let i = 0; i < unknown.length; i += 100) {
      const posts = await wp.all<WpPost>({
        path: `/wp/v2/${mapping[kind].restBase}`,
        ...this.#query(kind, { include: unknown.slice(i, i + 100).join(',') }),
        language,
      });
      for (const p of posts) {
        const stored = linkedFacetsOf(kind, p, mapping).values.excerpt !== '';
        out.set(p.id, stored);
        if (learnt.size < 100_000) learnt.set(p.id, stored);
      }
    }
    return out;
  }

  /**
   * A change through the gateway or announced: `ids` are re-read before the next answer; without ids (or a
   * catalog not loaded yet) everything is.
   */
  invalidate(kind: LinkedKind, ids?: number[]): void {
    for (const [key, learnt] of this.#excerpts) {
      if (!key.startsWith(`${kind}|`)) continue;
      if (ids) for (const id of ids) learnt.delete(id);
      else learnt.clear();
    }
    for (const [key, entry] of this.#entries) {
      if (!key.startsWith(`${kind}|`)) continue;
      if (ids && this.#loaded.has(key)) for (const id of ids) entry.pending.add(id);
      else {
        this.#entries.delete(key);
        this.#loaded.delete(key);
      }
    }
  }

  /**
   * Applies cache tags as {@link invalidate} calls: `venue:12` re-reads venue 12; `list:venue` alone (no id named)
   * re-reads every venue; null re-reads everything.
   */
  invalidateTags(tags: string[] | null): void {
    for (const kind of ['venue', 'organizer'] as const) {
      if (tags === null) {
        this.invalidate(kind);
        continue;
      }
      const ids = tags.flatMap((t) => (t.startsWith(`${kind}:`) ? [Number(t.slice(kind.length + 1))] : []));
      if (ids.length) this.invalidate(kind, ids.filter(Number.isInteger));
      else if (tags.includes(`list:${kind}`)) this.invalidate(kind);
    }
  }

  /** Whether records store an excerpt, learnt one request at a time while no catalog is loaded. */
  readonly #excerpts = new Map<string, Map<number, boolean>>();

  /** The last complete answer per key. */
  readonly #loaded = new Map<string, Map<number, LinkedFacets>>();

  #recrawl(key: string, kind: LinkedKind, language: string): Entry {
    const items = this.#crawl(kind, language);
    const entry: Entry = {
      at: Date.now(),
      items,
      pending: new Set(),
      checkedAt: Date.now(),
      reread: new Map(),
      ticks: 0,
      crawls: 0,
    };
    this.#entries.set(key, entry);
    items.then(
      (m) => {
        if (this.#entries.get(key) === entry) this.#loaded.set(key, m);
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return entry;
  }

  #query(
    kind: LinkedKind,
    extra: Record<string, string>,
  ): { query: Record<string, string>; as: 'service' | 'anonymous' } {
    const { wp, mapping } = this.#deps;
    const service = !!wp.options.serviceAuth;
    const fields = wpFieldsOf(mapping, kind, ['date', 'author', 'password']);
    // Without a service credential only what the public sees can be indexed.
    const query = service
      ? {
          context: 'edit',
          status: CRAWL_STATUSES,
          _fields: fields.join(','),
          orderby: 'id',
          order: 'asc',
          ...extra,
        }
      : { _fields: fields.join(','), orderby: 'id', order: 'asc', ...extra };
    return { query, as: service ? 'service' : 'anonymous' };
  }

  async #crawl(kind: LinkedKind, language: string): Promise<Map<number, LinkedFacets>> {
    const { wp, mapping } = this.#deps;
    const started = Date.now();
    const posts = await wp.all<WpPost>({
      path: `/wp/v2/${mapping[kind].restBase}`,
      ...this.#query(kind, {}),
      language,
    });
    // A record saved since the crawl began or just before may have been read half done, and the checks, which read
    // its stamp whole meanwhile, never find that stamp a change again: it is read once more SAVE_SETTLE_MS after the
    // crawl's answer, as a check's finds are (#checkAgain).
    const recent = posts
      .filter((p) => p.modified_gmt && maySaveStill(p.modified_gmt, started))
      .map((p) => p.id);
    if (recent.length)
      setTimeout(() => {
        for (const id of recent) this.#entries.get(`${kind}|${language}`)?.pending.add(id);
      }, SAVE_SETTLE_MS).unref();
    return new Map(posts.map((p) => [p.id, linkedFacetsOf(kind, p, mapping)]));
  }

  /**
   * Asks WordPress what changed since the last check (edits in its admin that nobody announced): one small
   * `modified_after` request; concurrent callers share it. What changed is re-read before the next answer.
   */
  #check(kind: LinkedKind, language: string, e: Entry): Promise<void> {
    const since = e.checkedAt - CHECK_OVERLAP_MS;
    const started = Date.now();
    e.checking ??= this.#changedSince(kind, language, since)
      .then((changes) => {
        e.found ??= new Map();
        const found = e.found;
        if (found.size > 10_000) found.clear();
        const ids = changes
          .filter((c) => c.modified === undefined || found.get(c.id) !== c.modified)
          .map((c) => c.id);
        // Found again after a save of the last seconds (below): not once more.
        const again = changes.filter(
          (c) => ids.includes(c.id) && found.get(c.id) !== `${c.modified}${AGAIN}`,
        );
        for (const c of changes) if (c.modified !== undefined) found.set(c.id, c.modified);
        this.#checkAgain(found, again, started);
        for (const id of ids) e.pending.add(id);
        e.checkedAt = started;
        if (ids.length) this.#onChange(kind, ids);
      })
      .catch(() => {})
      .finally(() => {
        e.checking = undefined;
      });
    return e.checking;
  }

  /**
   * Records a check found saved in the last seconds are found again by a check SAVE_SETTLE_MS later (within its
   * overlap), and read again once: the read that follows a check may have caught the save half done, its row
   * written and not yet its meta, and the same stamp would never be a change again.
   */
  #checkAgain(
    found: Map<number, string>,
    changes: Array<{ id: number; modified?: string }>,
    nowMs: number,
  ): void {
    const recent = changes.filter((c) => c.modified !== undefined && maySaveStill(c.modified, nowMs));
    if (!recent.length) return;
    setTimeout(() => {
      for (const c of recent) if (found.get(c.id) === c.modified) found.set(c.id, `${c.modified}${AGAIN}`);
    }, SAVE_SETTLE_MS).unref();
  }

  /** Checks every loaded catalog each `intervalMs` (so cached answers drop admin edits without a request). */
  start(intervalMs: number): void {
    this.stop();
    this.#timer = setInterval(() => {
      for (const [key, e] of this.#entries) {
        if (!this.#loaded.has(key)) continue;
        const [kind, language] = key.split('|') as [LinkedKind, string];
        this.#check(kind, language, e).catch(() => {});
      }
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #timer: NodeJS.Timeout | undefined;

  /** Ids of the records modified after `sinceMs` (all statuses the catalog holds), one page of 100 at most. */
  async #changedSince(
    kind: LinkedKind,
    language: string,
    sinceMs: number,
  ): Promise<Array<{ id: number; modified?: string }>> {
    const { wp, mapping } = this.#deps;
    const { query, as } = this.#query(kind, {
      modified_after: modifiedAfter(sinceMs),
      _fields: 'id,modified_gmt',
    });
    const page = await wp.list<{ id: number; modified_gmt?: string }>({
      path: `/wp/v2/${mapping[kind].restBase}`,
      query: { ...query, per_page: 100 },
      as,
      language,
    });
    // More than a page changed: read everything again rather than page through the changes.
    if (page.totalPages > 1)
      return [...(this.#loaded.get(`${kind}|${language}`)?.keys() ?? []), ...page.items.map((p) => p.id)].map(
        (id) => ({ id }),
      );
    return page.items.map((p) => ({ id: p.id, modified: p.modified_gmt }));
  }

  /** The catalog with `ids` read again (a record gone upstream leaves it). */
  async #refetch(
    kind: LinkedKind,
    language: string,
    current: Map<number, LinkedFacets>,
    ids: number[],
  ): Promise<Map<number, LinkedFacets>> {
    const { wp, mapping } = this.#deps;
    const next = new Map(current);
    for (let i = 0; i < ids.length; i += 100) {
      const chunk = ids.slice(i, i + 100);
      const posts = await wp.all<WpPost>({
        path: `/wp/v2/${mapping[kind].restBase}`,
        ...this.#query(kind, { include: chunk.join(',') }),
        language,
      });
      for (const id of chunk) next.delete(id);
      for (const p of posts) next.set(p.id, linkedFacetsOf(kind, p, mapping));
    }
    this.#loaded.set(`${kind}|${language}`, next);
    return next;
  }
}
