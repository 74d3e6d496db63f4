// Stage: who the caller is and whether they may write, decided before anything of the request is parsed.
import type { RequestHandler } from 'express';
import { forbidden } from '../http/errors.ts';
import { contextOf, type Stage } from '../http/exchange.ts';

export interface AuthenticateOptions {
  /**
   * Checks signed-in credentials with WordPress (401 `incorrect_password` when refused), so a wrong password is
   * refused everywhere, not only where a handler happens to ask upstream. Resolves the user WordPress vouches for.
   */
  resolve: (ctx: ReturnType<typeof contextOf>) => Promise<{ id: number } | null>;
  /** The body parsers: run once the caller may write, never for a read. */
  bodies: readonly RequestHandler[];
}

/** Runs express middlewares (the body parsers) in turn, throwing the first error one passes on. */
async function runAll(handlers: readonly RequestHandler[], x: Parameters<Stage>[0]): Promise<void> {
  for (const h of handlers) {
    await new Promise<void>((resolve, reject) => {
      h(x.req, x.res, (err?: unknown) => (err ? reject(err) : resolve()));
    });
  }
}

/**
 * An anonymous write is refused before its body, arguments and dates cost anything (the handlers would refuse it
 * with the same 401; WordPress validates arguments first, docs/differences.md). A signed-in caller is checked with
 * WordPress before parsing too. Only then is a write's body read.
 */
export const authenticate =
  (o: AuthenticateOptions): Stage =>
  async (x, next) => {
    if (x.method !== 'GET' && !x.credentials) throw forbidden(false);
    if (x.credentials) x.user = (await o.resolve(contextOf(x, x.rootLanguage))) ?? undefined;
    if (x.method !== 'GET') {
      await runAll(o.bodies, x);
      const b = x.req.body;
      x.body = b && typeof b === 'object' && !Array.isArray(b) ? b : {};
      x.raw = { ...x.query, ...x.body, ...x.params };
    }
    await next();
  };
