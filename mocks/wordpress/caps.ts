// Roles, primitive capabilities and map_meta_cap for capability_type 'post', plus Basic-auth user resolution.
import type { Role } from '../seed-types.ts';

export interface MockUser {
  id: number;
  login: string;
  name: string;
  slug: string;
  email: string;
  role: Role;
}

const AUTHOR_CAPS = [
  'read',
  'level_0',
  'level_1',
  'level_2',
  'edit_posts',
  'delete_posts',
  'edit_published_posts',
  'publish_posts',
  'delete_published_posts',
  'upload_files',
];
const EDITOR_CAPS = [
  ...AUTHOR_CAPS,
  'level_3',
  'level_4',
  'level_5',
  'level_6',
  'level_7',
  'edit_others_posts',
  'delete_others_posts',
  'delete_private_posts',
  'edit_private_posts',
  'read_private_posts',
  'manage_categories',
  'moderate_comments',
  'manage_links',
  'unfiltered_html',
  'edit_pages',
  'edit_others_pages',
  'edit_published_pages',
  'publish_pages',
  'delete_pages',
];

/** WordPress's default role → primitive capabilities (the subset that matters for posts, terms and users). */
export const ROLE_CAPS: Record<Role, string[]> = {
  subscriber: ['read', 'level_0'],
  contributor: ['read', 'level_0', 'level_1', 'edit_posts', 'delete_posts'],
  author: AUTHOR_CAPS,
  editor: EDITOR_CAPS,
  administrator: [
    ...EDITOR_CAPS,
    'level_8',
    'level_9',
    'level_10',
    'switch_themes',
    'edit_themes',
    'activate_plugins',
    'edit_plugins',
    'edit_users',
    'edit_files',
    'manage_options',
    'import',
    'list_users',
    'create_users',
    'delete_users',
    'promote_users',
    'remove_users',
    'edit_theme_options',
    'install_plugins',
    'update_core',
    'export',
  ],
};

/** The post fields map_meta_cap looks at. */
export interface CapPost {
  author: number;
  status: string;
  trashedFrom?: string;
}

export function hasCap(user: MockUser | null, cap: string): boolean {
  if (!user) return false;
  return cap === user.role || ROLE_CAPS[user.role].includes(cap);
}

/** map_meta_cap for edit_post / delete_post / read_post on a post of capability_type 'post'. */
export function canPost(user: MockUser | null, action: 'edit' | 'delete' | 'read', post: CapPost): boolean {
  if (!user) return false;
  const own = post.author === user.id;
  if (action === 'read') {
    if (post.status === 'publish' || own) return hasCap(user, 'read');
    if (post.status === 'private') return hasCap(user, 'read_private_posts');
    return canPost(user, 'edit', post);
  }
  const status = post.status === 'trash' ? (post.trashedFrom ?? 'draft') : post.status;
  const published = status === 'publish' || status === 'future';
  const caps: string[] = [];
  if (own) caps.push(published ? `${action}_published_posts` : `${action}_posts`);
  else {
    caps.push(`${action}_others_posts`);
    if (published) caps.push(`${action}_published_posts`);
    else if (status === 'private') caps.push(`${action}_private_posts`);
  }
  return caps.every((c) => hasCap(user, c));
}

/**
 * Resolves `Authorization: Basic base64(login:password)`. Every user shares `password` (the application
 * password). A wrong password resolves to nobody: reads then behave as anonymous and writes get 401, as on
 * WordPress 6.1 (wordpress-upstream.md §6). Other schemes are ignored.
 */
export function authenticate(header: string | null, users: MockUser[], password: string): MockUser | null {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  const login = decoded.slice(0, i);
  // Application passwords are shown with spaces; WordPress strips them before comparing.
  const given = decoded.slice(i + 1).replace(/\s+/g, '');
  if (given !== password.replace(/\s+/g, '')) return null;
  return users.find((u) => u.login === login || u.email === login) ?? null;
}

/** The `capabilities` object of users/me?context=edit: every primitive cap plus the role name. */
export function capabilityObject(user: MockUser): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const c of ROLE_CAPS[user.role]) out[c] = true;
  out[user.role] = true;
  return out;
}
