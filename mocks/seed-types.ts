// The sample calendar at storage level (wp/v2 post fields, mapped meta keys, term slugs), shared by the
// in-memory mock and the real-WordPress seeder so both upstreams hold the same site.

export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

export interface SeedUser {
  login: string;
  role: Role;
  email: string;
  name: string;
}

export interface SeedTerm {
  slug: string;
  name: string;
  description: string;
  /** Slug of the parent term (hierarchical taxonomies only). */
  parent?: string;
}

export type SeedMeta = string | number | boolean | Array<string | number>;

export interface SeedPost {
  /** Unique key within the seed (equal to the slug); links between posts name keys, not ids. */
  key: string;
  /** Which mapped resource this post is. */
  kind: 'event' | 'venue' | 'organizer';
  /** The WordPress post type (from the mapping). */
  postType: string;
  status: 'publish' | 'draft' | 'pending' | 'private' | 'future';
  password?: string;
  /** Login of the author. */
  author: string;
  title: string;
  content: string;
  excerpt: string;
  slug: string;
  /** Publication date, site-local `YYYY-MM-DD HH:MM:SS` (in the future for `future` posts). */
  date: string;
  menuOrder?: number;
  /** Meta rows by mapped key, already in storage format. Link keys (venue, organizers) are absent here. */
  meta: Record<string, SeedMeta>;
  /** Links to other seed posts by meta key: `{ _EventVenueID: ['venue-key'], _EventOrganizerID: ['o1', 'o2'] }`. */
  links: Record<string, string[]>;
  /** Term slugs by the taxonomy's rest_base: `{ tribe_events_cat: ['music'], tags: ['jazz'] }`. */
  terms: Record<string, string[]>;
}

export interface SeedSite {
  /** Site timezone (`timezone_string`). */
  timezone: string;
  users: SeedUser[];
  /** Terms by the taxonomy's rest_base, parents before children. */
  taxonomies: Record<string, SeedTerm[]>;
  /** Venues and organizers first, then events (links point backwards). */
  posts: SeedPost[];
}
