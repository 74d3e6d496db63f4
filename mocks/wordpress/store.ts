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
  private nextTerm = 1;
  private lastStamp = '';
  readonly timezone: string;
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
    this.users = [];
    this.posts.clear();
    this.terms.clear();
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
    const user = { ...u, id: this.users.length + 1, slug: slugify(u.login) };
    this.users.push(user);
    return user;
  }

  /** wp_unique_post_slug: `slug`, `slug-2`, `slug-3` … among posts of the same type. */
  uniqueSlug(slug: string, type: string, selfId: number): string {
    const taken = (s: string) =>
      [...this.posts.values()].some((p) => p.type === type && p.slug === s && p.id !== selfId);
    if (!taken(slug)) return slug;
    for (let n = 2; ; n++) if (!taken(`${slug}-${n}`)) return `${slug}-${n}`;
  }

  insertPost(p: Partial<StoredPost> & { type: string }): StoredPost {
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
    post.slug = this.finalSlug(post, p.slug ?? '');
    this.posts.set(id, post);
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
    const post = this.posts.get(id);
    if (!post) throw new Error(`no post ${id}`);
    const { meta, ...fields } = patch;
    Object.assign(post, fields);
    if (fields.date && !fields.dateGmt) post.dateGmt = this.localToGmt(fields.date);
    if (
      fields.slug !== undefined ||
      (post.slug === '' && post.status !== 'draft' && post.status !== 'pending')
    ) {
      post.slug = this.finalSlug(post, fields.slug ?? post.slug);
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
    return this.posts.delete(id);
  }

  insertTerm(t: Omit<StoredTerm, 'id'>): StoredTerm {
    const term = { ...t, id: this.nextTerm++ };
    this.terms.set(term.id, term);
    return term;
  }

  /** wp_delete_term: children move up to the deleted term's parent; posts lose the term. */
  deleteTerm(id: number): void {
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
    return [...this.posts.values()].find((p) => p.type === type && p.slug === slug);
  }

  termBySlug(taxonomy: string, slug: string): StoredTerm | undefined {
    return [...this.terms.values()].find((t) => t.taxonomy === taxonomy && t.slug === slug);
  }

  /** wp_set_object_terms from wp-admin: like WordPress, assigning terms alone does not move `modified`. */
  setTerms(postId: number, taxonomy: string, ids: number[]): void {
    const post = this.posts.get(postId);
    if (!post) throw new Error(`no post ${postId}`);
    post.terms[taxonomy] = [...new Set(ids)];
  }

  postsOfType(type: string): StoredPost[] {
    return [...this.posts.values()].filter((p) => p.type === type);
  }
}
