// WordPress's `sanitize_title` for the names we turn into slugs (accents dropped, lower case, dashes).

/** A post slug from a title, as `sanitize_title` makes it for plain titles. Pure. */
export function sanitizeTitle(title: string): string {
  return title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Statuses WordPress gives a slug by itself; a draft or pending post keeps an empty one unless it is sent. */
const SLUGGED = new Set(['publish', 'future', 'private']);

/**
 * The slug a new venue or organizer must be sent with: TEC sets `post_name` from the name whatever the status, so a
 * draft has one (WordPress would leave it empty). Undefined when WordPress makes it or one was sent.
 */
export function draftSlug(name: unknown, status: unknown, sent: unknown): string | undefined {
  if (sent !== undefined || typeof name !== 'string' || SLUGGED.has(String(status))) return undefined;
  return sanitizeTitle(name) || undefined;
}
