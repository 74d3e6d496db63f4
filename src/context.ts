// The request context: who is calling, in which language, with what credentials; passed explicitly.

export type Credentials =
  | { kind: 'basic'; header: string; user: string }
  | { kind: 'cookie'; cookie: string; nonce: string };

export interface RequestContext {
  /** `anonymous`, or a stable hash of the caller's credentials (never the credentials themselves). */
  readonly audience: string;
  /** Credentials to forward upstream as they came; absent for anonymous callers. */
  readonly credentials?: Credentials;
  /** Content language (`en`, `es`, …). */
  readonly language: string;
  readonly requestId: string;
  /** The caller's address as express sees it (after `trust proxy`): what password guesses are counted against. */
  readonly client?: string;
  readonly signal: AbortSignal;
  /** When the request arrived (epoch ms): the upstream calls made for it share one deadline from then. */
  readonly arrivedAt?: number;
}

export const isAnonymous = (ctx: RequestContext): boolean => ctx.credentials === undefined;
