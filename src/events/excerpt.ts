// wp/v2's view context invents an excerpt from the content when none is stored; TEC shows only a stored one.
import type { WpPost } from '../wp/types.ts';

/** Marks the post's excerpt as empty when the index (read in edit context) knows none is stored. */
export function withStoredExcerpt(post: WpPost, hasExcerpt: boolean | undefined): WpPost {
  if (hasExcerpt !== false || !post.excerpt || post.excerpt.raw !== undefined) return post;
  return { ...post, excerpt: { ...post.excerpt, raw: '' } };
}
