// Who the caller is upstream (id, roles, capabilities), resolved with their own credentials and cached briefly.
import { LRUCache } from 'lru-cache';
import { type AuthThrottle, claimedUser } from '../auth/throttle.ts';
import { countBound, EXACT_CLOCK } from '../cache/count-bound.ts';
import type { RequestContext } from '../context.ts';
import { ApiError, credentialsRejected } from '../http/errors.ts';
import type { WpClient } from './client.ts';
import type { WpUser } from './types.ts';

export interface Caller {
  id: number;
  roles: string[];
  caps: Record<string, boolean>;
}

/** The capability names a post type maps its generic caps to (`edit_posts` → `edit_tribe_events`). */
export type TypeCaps = Record<string, string>;

export class CallerResolver {
  private readonly cache: LRUCache<string, Caller>;
  private readonly wp: WpClient;
  /** Failed sign-ins per address and user name (absent in tests that build their own: not throttled). */
  private readonly throttle?: AuthThrottle;

  constructor(wp: WpClient, ttlMs = 60_000, throttle?: AuthThrottle) {
    this.wp = wp;
    this.throttle = throttle;
    this.cache = new LRUCache<string, Caller>({
      ...countBound(5000),
      ttl: ttlMs,
      ...EXACT_CLOCK,
      fetchMethod: async (_key, _stale, { context }) => this.load(context as RequestContext),
    });
  }

  /**
   * Asks WordPress who the credentials are: the only place they are checked, so the throttle decides here, before
   * the request (credentials WordPress accepted stay cached and are not asked again, nor throttled, for `ttlMs`).
   */
  private async load(ctx: RequestContext): Promise<Caller> {
    const attempt =
      ctx.credentials &&
      (await this.throttle?.attempt(ctx.client ?? 'unknown', claimedUser(ctx.credentials)));
    try {
      const res = await this.wp.request<WpUser>({
        path: '/wp/v2/users/me',
        query: { context: 'edit', _fields: 'id,roles,capabilities' },
        as: { credentials: ctx.credentials },
        signal: ctx.signal,
      });
      await attempt?.accepted();
      return { id: res.body.id, roles: res.body.roles ?? [], caps: res.body.capabilities ?? {} };
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        throw credentialsRejected();
      }
      // A cookie WordPress did not accept with its nonce is a failed sign-in too; anything else says nothing.
      if (!(err instanceof ApiError && err.code === 'rest_cookie_invalid_nonce')) await attempt?.undecided();
      throw err;
    }
  }

  /** `null` for anonymous callers; throws 401 when the credentials are rejected. */
  async resolve(ctx: RequestContext): Promise<Caller | null> {
    if (!ctx.credentials) return null;
    const caller = await this.cache.fetch(ctx.audience, { context: ctx });
    return caller ?? null;
  }

  clear(): void {
    this.cache.clear();
  }
}

/** Whether the caller holds the post type's mapped capability (e.g. `edit_posts` of `tribe_events`). */
export function can(caller: Caller | null, typeCaps: TypeCaps, cap: string): boolean {
  if (!caller) return false;
  return caller.caps[typeCaps[cap] ?? cap] === true;
}
