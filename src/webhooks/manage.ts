// What an admin may do to subscriptions: make one (its secret shown once), change, rotate the secret, remove,
// redeliver; each body checked field by field into WordPress's rest_invalid_param.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { invalidParams, webhookMessageNotFound, webhookNotFound } from '../http/errors.ts';
import { checkedAddresses, type Resolver, systemResolver, urlProblem } from './guard.ts';
import type { Webhooks } from './service.ts';
import { newSecret } from './signing.ts';
import { EVENT_TYPES, publicView, type Subscription } from './types.ts';

/** How long the secret before a rotation still signs: receivers have a day to take the new one. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

const fields = {
  url: z.string({ error: 'url must be a string' }).max(2048, 'url must be at most 2048 characters'),
  types: z
    .array(
      z.enum(EVENT_TYPES as [string, ...string[]], {
        error: `each type must be one of ${EVENT_TYPES.join(', ')}`,
      }),
      {
        error: 'types must be a list of event types',
      },
    )
    .min(1, 'types must name at least one event type, or *'),
  description: z
    .string({ error: 'description must be a string' })
    .max(500, 'description must be at most 500 characters'),
  private: z.boolean({ error: 'private must be true or false' }),
  enabled: z.boolean({ error: 'enabled must be true or false' }),
};
const createBody = z.strictObject({
  url: fields.url,
  types: fields.types,
  description: fields.description.optional(),
  private: fields.private.optional(),
});
const patchBody = z.strictObject({
  url: fields.url.optional(),
  types: fields.types.optional(),
  description: fields.description.optional(),
  private: fields.private.optional(),
  enabled: fields.enabled.optional(),
});

/** A body's problems, one per parameter, as WordPress's rest_invalid_param names them. */
function parsed<T>(schema: z.ZodType<T>, body: unknown, allowPrivate: boolean): T {
  const r = schema.safeParse(body ?? {});
  const url = (body as { url?: unknown } | null)?.url;
  const urlWrong = typeof url === 'string' ? urlProblem(url, allowPrivate) : null;
  if (r.success && !urlWrong) return r.data;
  const params: Record<string, string> = urlWrong ? { url: urlWrong } : {};
  for (const issue of r.success ? [] : r.error.issues) {
    if (issue.code === 'unrecognized_keys')
      for (const key of issue.keys) params[key] = `${key} is not a subscription field`;
    else {
      const name = String(issue.path[0] ?? 'body');
      params[name] ??= issue.message;
    }
  }
  throw invalidParams(params);
}

export class WebhookAdmin {
  readonly #w: Webhooks;
  readonly #resolve: Resolver;
  readonly #now: () => number;

  constructor(webhooks: Webhooks) {
    this.#w = webhooks;
    this.#resolve = webhooks.options.resolve ?? systemResolver;
    this.#now = webhooks.options.now ?? Date.now;
  }

  /** Where the URL resolves now (unless private targets are allowed); its form was checked with the body. */
  async #checkUrl(url: string): Promise<void> {
    if (this.#w.options.allowPrivate) return;
    // Checked again at every connection: this only turns away what is already wrong.
    await checkedAddresses(new URL(url).hostname, this.#resolve).catch((err: Error) => {
      throw invalidParams({ url: `url cannot be used: ${err.message}` });
    });
  }

  async #find(id: string): Promise<Subscription> {
    const s = await this.#w.subs.get(id);
    if (!s) throw webhookNotFound();
    return s;
  }

  async create(body: unknown) {
    const b = parsed(createBody, body, this.#w.options.allowPrivate);
    await this.#checkUrl(b.url);
    const s: Subscription = {
      id: `wh_${randomUUID().replaceAll('-', '')}`,
      url: b.url,
      types: [...new Set(b.types)],
      description: b.description ?? '',
      private: b.private ?? false,
      enabled: true,
      disabled_reason: null,
      failing_since: null,
      created_ms: this.#now(),
      secret: newSecret(),
      previous_secret: null,
      previous_until: null,
    };
    await this.#w.subs.put(s);
    return { ...publicView(s), secret: s.secret };
  }

  async list() {
    return (await this.#w.subs.all()).map(publicView);
  }

  async get(id: string) {
    return publicView(await this.#find(id));
  }

  async update(id: string, body: unknown) {
    const b = parsed(patchBody, body, this.#w.options.allowPrivate);
    await this.#find(id);
    if (b.url !== undefined) await this.#checkUrl(b.url);
    // Written from the subscription as it is when written: a delivery's note of a failure meanwhile is kept, and a
    // delete meanwhile stays a delete.
    const next = await this.#w.subs.patch(id, (s) => {
      const n: Subscription = {
        ...s,
        ...(b.url !== undefined ? { url: b.url } : {}),
        ...(b.types !== undefined ? { types: [...new Set(b.types)] } : {}),
        ...(b.description !== undefined ? { description: b.description } : {}),
        ...(b.private !== undefined ? { private: b.private } : {}),
      };
      if (b.enabled === true && !s.enabled)
        Object.assign(n, { enabled: true, disabled_reason: null, failing_since: null });
      if (b.enabled === false && s.enabled)
        Object.assign(n, {
          enabled: false,
          disabled_reason: `disabled by an administrator on ${new Date(this.#now()).toISOString()}`,
        });
      return n;
    });
    if (!next) throw webhookNotFound();
    return publicView(next);
  }

  async remove(id: string) {
    const s = await this.#find(id);
    await this.#w.subs.delete(id);
    return { deleted: true, previous: publicView(s) };
  }

  /** A new secret, shown once; the one before keeps signing (a second signature) for ROTATION_GRACE_MS. */
  async rotate(id: string) {
    const until = this.#now() + ROTATION_GRACE_MS;
    const secret = newSecret();
    const next = await this.#w.subs.patch(id, (s) => ({
      ...s,
      secret,
      previous_secret: s.secret,
      previous_until: until,
    }));
    if (!next) throw webhookNotFound();
    return { ...publicView(next), secret: next.secret };
  }

  async attempts(id: string) {
    await this.#find(id);
    return this.#w.queue.attempts(id);
  }

  async redeliver(id: string, message: string) {
    await this.#find(id);
    if (!(await this.#w.queue.redeliver(message, id, this.#now()))) throw webhookMessageNotFound();
    this.#w.deliverer.kick();
    return { message, queued: true };
  }
}
