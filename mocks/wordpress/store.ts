// The mock WordPress's in-memory database: users, posts (incl. attachments), terms, with WordPress-like id sequences.
import { DateTime } from 'luxon';
import { slugify } from '../seed-data.ts';
import type { SeedMeta } from '../seed-types.ts';
import type { MockUser } from './caps.ts';
import type { SiteModel } from './schema.ts';

const MYSQL = 'yyyy-MM-dd HH:mm:ss';

export interface StoredPost {
  id: number;
  type: string;
  status: string;
  password: string;
  author: number;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  /** Site-local and GMT `YYYY-MM-DD HH:MM:SS`. */
  date: string;
  dateGmt: string;
  modified: string;
  modifiedGmt: string;
  menuOrder: number;
  parent: number;
  featuredMedia: number;
  /** Meta rows by key (several rows for list keys). */
  meta: Record<string, Array<string | number>>;
  /** Term ids by taxonomy name. */
  terms: Record<string, number[]>;
  /** Status before trashing (map_meta_cap looks at it). */
  trashedFrom?: string;
  /** Attachments only. */
  /** An attachment's file and metadata; `filesize` is the uploaded byte count (seeded images have none). */
  media?: { file: string; width: number; height: number; mime: string; alt: string; filesize?: number };
}

export interface StoredTerm {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** Registered term meta (the companion plugin registers only WRITE_META on terms). */
  meta?: Record<string, string>;
}

export type PostPatch = Partial<Omit<StoredPost, 'id' | 'meta' | 'type'>> & {
  meta?: Record<string, SeedMeta | null>;
};

export interface StoreOptions {
  timezone: string;
  now: () => Date;
  model: SiteModel;
}

export class Store {
  users: MockUser[] = [];
  posts = new Map<number, StoredPost>();
  terms = new Map<number, StoredTerm>();
  private nextPost = 1;
  private nextUser = 1;
  private nextTerm = 1;
  private lastStamp = '';
  /** The site's time zone option (the settings route changes it, as WordPress's general settings do). */
  timezone: string;
  readonly now: () => Date;
  readonly model: SiteModel;

  constructor(opts: StoreOptions) {
    this.timezone = opts.timezone;
    this.now = opts.now;
    this.model = opts.model;
    this.clear();
  }

  /** Empties everything but the install defaults (term 1 = Uncategorized, as a fresh WordPress has). */
  clear(): void {
    this.changed();
    this.users = [];
    this.nextUser = 1;
    this.posts.clear();
    this.terms.clear();
    this.slugIndex.clear();
    this.suffixes.clear();
    this.byType = null;
    this.nextPost = 1;
    this.nextTerm = 1;
    this.lastStamp = '';
    this.insertTerm({
      taxonomy: 'category',
      name: 'Uncategorized',
      slug: 'uncategorized',
      description: '',
      parent: 0,
    });
  }

  localToGmt(local: string): string {
    return DateTime.fromFormat(local, MYSQL, { zone: this.timezone }).toUTC().toFormat(MYSQL);
  }

  gmtToLocal(gmt: string): string {
    return DateTime.fromFormat(gmt, MYSQL, { zone: 'UTC' }).setZone(this.timezone).toFormat(MYSQL);
  }

  nowGmt(): string {
    return DateTime.fromJSDate(this.now(), { zone: 'UTC' }).toFormat(MYSQL);
  }

  /** A modification stamp that always moves forward, even under a frozen test clock. */
  stamp(): { local: string; gmt: string } {
    let gmt = this.nowGmt();
    if (gmt <= this.lastStamp) {
      gmt = DateTime.fromFormat(this.lastStamp, MYSQL, { zone: 'UTC' }).plus({ seconds: 1 }).toFormat(MYSQL);
    }
    this.lastStamp = gmt;
    return { local: this.gmtToLocal(gmt), gmt };
  }

  addUser(u: Omit<MockUser, 'id' | 'slug'>): MockUser {
    // Never an id a deleted user had (WordPress's AUTO_INCREMENT).
    this.nextUser = Math.max(this.nextUser, ...this.users.map((x) => x.id + 1));
    const user = { ...u, id: this.nextUser++, slug: slugify(u.login) };
    this.users.push(user);
    return user;
  }

  /** Posts by `type\0slug` (an id may linger after its slug changed: always checked against the post). */
  private slugIndex = new Map<string, Set<number>>();
  /** The last `-n` suffix handed out per `type\0slug`, so the next duplicate does not probe from 2 again. */
  private suffixes = new Map<string, number>();
  /** Posts of each type in id order, until a post is added or removed. */
  private byType: Map<string, StoredPost[]> | null = null;

  /** Matches of collection queries, by query (without paging): a crawl reads 1000 pages of one query. */
  private queries = new Map<string, StoredPost[]>();

  /** Something may have changed: forget cached query answers. Every mutation calls it. */
  changed(): void {
    this.queries.clear();
  }

  /** A collection query's matches, computed once per query until something changes. */
  cachedQuery(key: string, run: () => StoredPost[]): StoredPost[] {
    let hit = this.queries.get(key);
    if (!hit) {
      hit = run();
      if (this.queries.size >= 20) this.queries.clear();
      this.queries.set(key, hit);
    }
    return hit;
  }

  private slugKey = (type: string, slug: string) => `${type}\u0000${slug}`;

  /** Gives a post a slug (and keeps the slug index, so a lookup is O(1) at 100k posts). */
  setSlug(post: StoredPost, slug: string): void {
    this.changed();
    post.slug = slug;
    if (!slug) return;
    const key = this.slugKey(post.type, slug);
    let ids = this.slugIndex.get(key);
    if (!ids) {
      ids = new Set();
      this.slugIndex.set(key, ids);
    }
    ids.add(post.id);
  }

  /** wp_unique_post_slug: `slug`, `slug-2`, `slug-3` … among posts of the same type. */
  uniqueSlug(slug: string, type: string, selfId: number): string {
    const taken = (s: string) =>
      [...(this.slugIndex.get(this.slugKey(type, s)) ?? [])].some((id) => {
        const p = this.posts.get(id);
        return id !== selfId && p !== undefined && p.type === type && p.slug === s;
      });
    if (!taken(slug)) return slug;
    const key = this.slugKey(type, slug);
    for (let n = this.suffixes.get(key) ?? 2; ; n++) {
      if (!taken(`${slug}-${n}`)) {
        this.suffixes.set(key, n);
        return `${slug}-${n}`;
      }
    }
  }

  insertPost(p: Partial<StoredPost> & { type: string }): StoredPost {
    this.changed();
    const id = this.nextPost++;
    // The publication date is the real clock; only `modified` is kept strictly increasing (see stamp()).
    const stamp = p.modified && p.modifiedGmt ? { local: p.modified, gmt: p.modifiedGmt } : this.stamp();
    const date = p.date ?? this.gmtToLocal(this.nowGmt());
    const post: StoredPost = {
      status: 'draft',
      password: '',
      author: 0,
      title: '',
      content: '',
      excerpt: '',
      slug: '',
      menuOrder: 0,
      parent: 0,
      featuredMedia: 0,
      meta: {},
      terms: {},
      ...p,
      id,
      date,
      dateGmt: p.dateGmt ?? this.localToGmt(date),
      modified: p.modified ?? stamp.local,
      modifiedGmt: p.modifiedGmt ?? stamp.gmt,
    };
    this.posts.set(id, post);
    this.byType = null;
    this.setSlug(post, this.finalSlug(post, p.slug ?? ''));
    return post;
  }

  /** Drafts and pending posts keep an empty slug until published; everything else gets a unique one. */
  finalSlug(post: StoredPost, wanted: string): string {
    const base = slugify(wanted);
    if (!base && (post.status === 'draft' || post.status === 'pending' || post.status === 'auto-draft'))
      return '';
    return this.uniqueSlug(base || slugify(post.title) || String(post.id), post.type, post.id);
  }

  /** Edits a post as wp-admin would (also used by the REST routes): `modified` always moves. */
  updatePost(id: number, patch: PostPatch): StoredPost {
    this.changed();
    const post = this.posts.get(id);
    if (!post) throw new Error(`no post ${id}`);
    const { meta, ...fields } = patch;
    Object.assign(post, fields);
    if (fields.date && !fields.dateGmt) post.dateGmt = this.localToGmt(fields.date);
    if (
      fields.slug !== undefined ||
      (post.slug === '' && post.status !== 'draft' && post.status !== 'pending')
    ) {
      this.setSlug(post, this.finalSlug(post, fields.slug ?? post.slug));
    }
    for (const [key, value] of Object.entries(meta ?? {})) {
      if (value === null || value === undefined) delete post.meta[key];
      else
        post.meta[key] = Array.isArray(value)
          ? [...value]
          : [typeof value === 'boolean' ? (value ? '1' : '') : value];
    }
    const stamp = this.stamp();
    post.modified = stamp.local;
    post.modifiedGmt = stamp.gmt;
    return post;
  }

  deletePost(id: number): boolean {
    this.changed();
    this.byType = null;
    return this.posts.delete(id);
  }

  insertTerm(t: Omit<StoredTerm, 'id'>): StoredTerm {
    this.changed();
    const term = { ...t, id: this.nextTerm++ };
    this.terms.set(term.id, term);
    return term;
  }

  /** wp_delete_term: children move up to the deleted term's parent; posts lose the term. */
  deleteTerm(id: number): void {
    this.changed();
    const term = this.terms.get(id);
    if (!term) return;
    for (const t of this.terms.values()) if (t.parent === id) t.parent = term.parent;
    for (const p of this.posts.values()) {
      const ids = p.terms[term.taxonomy];
      if (ids) p.terms[term.taxonomy] = ids.filter((x) => x !== id);
    }
    this.terms.delete(id);
  }

  /** wp_unique_term_slug (simplified): `slug`, `slug-2` … within the taxonomy. */
  uniqueTermSlug(slug: string, taxonomy: string, selfId: number): string {
    const taken = (s: string) =>
      [...this.terms.values()].some((t) => t.taxonomy === taxonomy && t.slug === s && t.id !== selfId);
    if (!taken(slug)) return slug;
    for (let n = 2; ; n++) if (!taken(`${slug}-${n}`)) return `${slug}-${n}`;
  }

  /** Term counts as _update_post_term_count keeps them: published posts only. */
  termCounts(): Map<number, number> {
    const counts = new Map<number, number>();
    for (const p of this.posts.values()) {
      if (p.status !== 'publish') continue;
      for (const ids of Object.values(p.terms))
        for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  postBySlug(type: string, slug: string): StoredPost | undefined {
    for (const id of this.slugIndex.get(this.slugKey(type, slug)) ?? []) {
      const p = this.posts.get(id);
      if (p && p.type === type && p.slug === slug) return p;
    }
    return undefined;
  }

  termBySlug(taxonomy: string, slug: string): StoredTerm | undefined {
    return [...this.terms.values()].find((t) => t.taxonomy === taxonomy && t.slug === slug);
  }

  /** wp_set_object_terms from wp-admin: like WordPress, assigning terms alone does not move `modified`. */
  setTerms(postId: number, taxonomy: string, ids: number[]): void {
    this.changed();
    const post = this.posts.get(postId);
    if (!post) throw new Error(`no post ${postId}`);
    post.terms[taxonomy] = [...new Set(ids)];
  }

  /** The posts of a type in id order (shared: callers filter, never edit, the array). */
  postsOfType(type: string): readonly StoredPost[] {
    if (!this.byType) {
      this.byType = new Map();
      for (const p of this.posts.values()) {
        const list = this.byType.get(p.type);
        if (list) list.push(p);
        else this.byType.set(p.type, [p]);
      }
    }
    return this.byType.get(type) ?? [];
  }
}
