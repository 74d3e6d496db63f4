// Creating and deleting users in the mock WordPress (WP_REST_Users_Controller, as an administrator uses it).
import { HttpResponse } from 'msw';
import type { Role } from '../seed-types.ts';
import { hasCap } from './caps.ts';
import { authCode, WpError } from './http-util.ts';
import type { Req } from './posts.ts';
import { renderUser } from './render.ts';

const ROLES: Role[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];

/** POST /wp/v2/users: `username`, `email` and `password` required, `roles` optional (the first one is kept). */
export function createUser(req: Req): Response {
  const { site, user, params } = req;
  if (!hasCap(user, 'create_users'))
    throw new WpError(
      'rest_cannot_create_user',
      'Sorry, you are not allowed to create new users.',
      authCode(!!user),
    );
  const missing = ['username', 'email', 'password'].filter(
    (k) => typeof params[k] !== 'string' || !params[k],
  );
  if (missing.length)
    throw new WpError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, 400, {
      params: missing,
    });
  const login = String(params.username);
  if (site.store.users.some((u) => u.login === login))
    throw new WpError('existing_user_login', 'Sorry, that username already exists!', 500);
  const roles = Array.isArray(params.roles) ? params.roles.map(String) : ['subscriber'];
  const role = (ROLES.find((r) => r === roles[0]) ?? 'subscriber') as Role;
  const made = site.store.addUser({
    login,
    role,
    email: String(params.email),
    name: String(params.name ?? login),
  });
  return HttpResponse.json(renderUser(site, made, 'edit'), { status: 201 });
}

/**
 * DELETE /wp/v2/users/{id}?force=true&reassign=<id|false> (wp_delete_user): the user's posts go to `reassign` (their
 * `modified` left as it was: WordPress moves them in one UPDATE), or are deleted with `reassign=false`.
 */
export function deleteUser(req: Req, id: string): Response {
  const { site, user, params } = req;
  const target = site.store.users.find((u) => u.id === Number(id));
  if (!target) throw new WpError('rest_user_invalid_id', 'Invalid user ID.', 404);
  if (!hasCap(user, 'delete_users'))
    throw new WpError(
      'rest_user_cannot_delete',
      'Sorry, you are not allowed to delete this user.',
      authCode(!!user),
    );
  if (!['1', 'true'].includes(String(params.force)))
    throw new WpError(
      'rest_trash_not_supported',
      "Users do not support trashing. Set 'force' to true to delete.",
      501,
    );
  if (params.reassign === undefined)
    throw new WpError('rest_missing_callback_param', 'Missing parameter(s): reassign', 400, {
      params: ['reassign'],
    });
  const reassign = ['false', '', '0'].includes(String(params.reassign)) ? null : Number(params.reassign);
  if (reassign !== null && (reassign === target.id || !site.store.users.some((u) => u.id === reassign)))
    throw new WpError('rest_user_invalid_reassign', 'Invalid user ID for reassignment.', 400);
  const previous = renderUser(site, target, 'edit');
  for (const p of [...site.store.posts.values()]) {
    if (p.author !== target.id) continue;
    if (reassign === null) site.store.deletePost(p.id);
    else p.author = reassign;
  }
  site.store.users = site.store.users.filter((u) => u !== target);
  return HttpResponse.json({ deleted: true, previous });
}
