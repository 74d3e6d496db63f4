// Writes a SeedSite into a real WordPress through wp/v2 and batch/v1 (25 per batch, 4 batches in parallel).
import type { SeedSite } from '../mocks/seed-types.ts';
import type { Mapping } from '../src/mapping/schema.ts';
import { chunk, type IdMaps, postBody, postWaves, restBaseOf, termWaves } from './seed-plan.ts';

/** WordPress refuses batches of more than 25 requests. */
const BATCH_SIZE = 25;
/** Four batches in flight matched php -S's four workers best (wordpress-upstream.md §7). */
const PARALLEL = 4;

export interface SeedOptions {
  /** `http://127.0.0.1:8080/wp-json` */
  url: string;
  /** `login:application-password` of an administrator. */
  auth: string;
  mapping: Mapping;
  site: SeedSite;
  log?: (line: string) => void;
}

interface BatchRequest {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

interface BatchResponse {
  status: number;
  body: { id?: number; code?: string; message?: string; data?: { term_id?: number } } & Record<
    string,
    unknown
  >;
}

export class RestClient {
  readonly #url: string;
  readonly #authHeader: string;

  constructor(url: string, auth: string) {
    this.#url = url.replace(/\/+$/, '');
    this.#authHeader = `Basic ${Buffer.from(auth).toString('base64')}`;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<{ data: T; headers: Headers }> {
    const res = await fetch(this.#url + path, {
      method,
      headers: { authorization: this.#authHeader, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 500)}`);
    return { data: JSON.parse(text) as T, headers: res.headers };
  }

  /** Every item of a paged wp/v2 collection. */
  async all<T>(path: string): Promise<T[]> {
    const out: T[] = [];
    const sep = path.includes('?') ? '&' : '?';
    for (let page = 1; ; page++) {
      const { data, headers } = await this.request<T[]>('GET', `${path}${sep}per_page=100&page=${page}`);
      out.push(...data);
      if (page >= Number(headers.get('x-wp-totalpages') ?? '1')) return out;
    }
  }

  /** Sends requests through batch/v1, 25 per batch and 4 batches at a time; answers in request order. */
  async batch(requests: BatchRequest[]): Promise<BatchResponse[]> {
    const batches = chunk(requests, BATCH_SIZE);
    const results: BatchResponse[][] = new Array(batches.length);
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const i = next++;
        const { data } = await this.request<{ responses: BatchResponse[] }>('POST', '/batch/v1', {
          requests: batches[i],
        });
        results[i] = data.responses;
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, batches.length) }, worker));
    return results.flat();
  }
}

/** Creates whatever of `site` is missing (matched by login / slug), so a half-finished seed can be resumed. */
export async function seedSite(opts: SeedOptions): Promise<{ terms: number; posts: number; users: number }> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const rest = new RestClient(opts.url, opts.auth);
  const ids: IdMaps = { terms: new Map(), posts: new Map(), users: new Map() };

  // Before any post: WordPress converts the local `date` we send with the timezone in effect.
  await rest.request('POST', '/wp/v2/settings', { timezone: opts.site.timezone });

  let createdUsers = 0;
  const users = await rest.all<{ id: number; username: string; name: string; email: string }>(
    '/wp/v2/users?context=edit',
  );
  for (const u of users) ids.users.set(u.username, u.id);
  for (const u of opts.site.users) {
    const id = ids.users.get(u.login);
    const wanted = { name: u.name, email: u.email };
    if (id === undefined) {
      const password = crypto.randomUUID();
      const { data } = await rest.request<{ id: number }>('POST', '/wp/v2/users', {
        username: u.login,
        roles: [u.role],
        password,
        ...wanted,
      });
      ids.users.set(u.login, data.id);
      createdUsers++;
    } else {
      const have = users.find((x) => x.id === id);
      if (have?.name !== u.name || have?.email !== u.email) {
        await rest.request('POST', `/wp/v2/users/${id}`, wanted);
      }
    }
  }

  let createdTerms = 0;
  for (const [restBase, terms] of Object.entries(opts.site.taxonomies)) {
    const bySlug = new Map<string, number>();
    ids.terms.set(restBase, bySlug);
    for (const t of await rest.all<{ id: number; slug: string }>(`/wp/v2/${restBase}?_fields=id,slug`)) {
      bySlug.set(t.slug, t.id);
    }
    for (const wave of termWaves(terms, new Set(bySlug.keys()))) {
      const responses = await rest.batch(
        wave.map((t) => ({
          method: 'POST' as const,
          path: `/wp/v2/${restBase}`,
          body: {
            name: t.name,
            slug: t.slug,
            description: t.description,
            ...(t.parent === undefined ? {} : { parent: bySlug.get(t.parent) }),
          },
        })),
      );
      responses.forEach((r, i) => {
        bySlug.set(wave[i]!.slug, createdId(r, `term ${restBase}/${wave[i]!.slug}`));
      });
      createdTerms += wave.length;
    }
  }
  log(`seed: ${createdTerms} terms created`);

  const known = new Set<string>();
  for (const kind of ['venue', 'organizer', 'event'] as const) {
    const res = opts.mapping[kind];
    const existing = await rest.all<{ id: number; slug: string }>(
      `/wp/v2/${res.restBase}?status=any&context=edit&_fields=id,slug`,
    );
    const keysOfKind = new Set(opts.site.posts.filter((p) => p.kind === kind).map((p) => p.key));
    for (const p of existing) {
      if (keysOfKind.has(p.slug)) {
        ids.posts.set(p.slug, p.id);
        known.add(p.slug);
      }
    }
  }

  let createdPosts = 0;
  for (const wave of postWaves(opts.site.posts, known)) {
    const t0 = performance.now();
    const responses = await rest.batch(
      wave.map((p) => ({
        method: 'POST' as const,
        path: `/wp/v2/${restBaseOf(p, opts.mapping)}`,
        body: postBody(p, opts.mapping, ids),
      })),
    );
    responses.forEach((r, i) => {
      ids.posts.set(wave[i]!.key, createdId(r, `${wave[i]!.kind} ${wave[i]!.key}`));
    });
    createdPosts += wave.length;
    log(`seed: ${wave.length} posts created in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
  }
  return { terms: createdTerms, posts: createdPosts, users: createdUsers };
}

/** The new object's id, or the existing term's id on `term_exists`; anything else is an error. */
function createdId(r: BatchResponse, what: string): number {
  if (r.status === 201 && typeof r.body.id === 'number') return r.body.id;
  if (r.body.code === 'term_exists' && typeof r.body.data?.term_id === 'number') return r.body.data.term_id;
  throw new Error(`creating ${what} failed: ${r.status} ${JSON.stringify(r.body).slice(0, 500)}`);
}
