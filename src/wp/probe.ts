// Start-up probe: checks the upstream exposes what the mapping needs, and says how to fix what is missing.
import type { FieldSource, Mapping, ResourceKind } from '../mapping/schema.ts';
import type { TypeCaps } from './caller.ts';
import type { WpClient } from './client.ts';

export interface SiteFacts {
  name: string;
  /** Site URL without a trailing slash. */
  home: string;
  /** IANA zone or `UTC+N`. */
  timezone: string;
  /** Capability names per mapped post type. */
  caps: Record<ResourceKind, TypeCaps>;
  /**
   * Whether attachments expose SOURCE_URL_META in REST (the companion plugin registers it): then an image URL sent
   * again reuses the attachment uploaded from it, as TEC's uploader does.
   */
  mediaSourceMeta: boolean;
  /**
   * Whether every record kind the gateway creates (mapped posts, mapped taxonomies' terms, attachments) exposes
   * WRITE_META in REST (the companion plugin registers it, with the WRITE_QUERY list filter). Without it a create
   * whose answer was lost cannot be proven the gateway's: it is logged for the operator, never deleted.
   */
  writeMeta: boolean;
  /** What lacks WRITE_META, for the start-up warning. */
  unstamped?: string[];
}

/** TEC's own record of the URL an attachment was downloaded from (Tribe__Image__Uploader). */
export const SOURCE_URL_META = '_tribe_importer_original_url';

/**
 * The token of the gateway write that created a record (post, term or attachment meta, registered by the companion
 * plugin and written in the create request itself). Cleaning up after a failed write removes only what carries its
 * token (src/write/undo.ts).
 */
export const WRITE_META = '_calendar_gateway_write';

/** The list parameter the companion plugin adds to wp/v2 posts, terms and media: the records carrying a token. */
export const WRITE_QUERY = 'calendar_gateway_write';

export class ProbeError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(
      `The upstream WordPress is not ready for this mapping:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ProbeError';
    this.problems = problems;
  }
}

interface RootIndex {
  name?: string;
  home?: string;
  url?: string;
  timezone_string?: string;
  gmt_offset?: number | string;
  namespaces?: string[];
}
interface TypeInfo {
  slug: string;
  rest_base: string;
  capabilities?: TypeCaps;
}
interface TaxInfo {
  slug: string;
  rest_base: string;
  types: string[];
}
interface Schema {
  schema?: { properties?: { meta?: { properties?: Record<string, unknown> } } };
}

const FIX =
  'install the companion plugin (wordpress/companion/calendar-gateway-companion.php) as an mu-plugin';

export function siteTimezone(root: RootIndex): string {
  if (root.timezone_string) return root.timezone_string;
  const off = Number(root.gmt_offset ?? 0);
  if (!off) return 'UTC';
  const h = Math.trunc(off);
  const m = Math.round(Math.abs(off - h) * 60);
  return `UTC${off >= 0 ? '+' : '-'}${Math.abs(h)}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

export async function probeUpstream(wp: WpClient, mapping: Mapping): Promise<SiteFacts> {
  const problems: string[] = [];
  const root = (await wp.request<RootIndex>({ path: '/', as: 'anonymous' })).body;
  if (!root.namespaces?.includes('wp/v2')) {
    throw new ProbeError([
      `${wp.options.baseUrl} does not serve the wp/v2 namespace: is UPSTREAM_URL the REST root (…/wp-json)?`,
    ]);
  }
  const as = wp.options.serviceAuth ? 'service' : 'anonymous';
  const context = as === 'service' ? 'edit' : 'view';
  const types = (await wp.request<Record<string, TypeInfo>>({ path: '/wp/v2/types', query: { context }, as }))
    .body;
  const taxes = (
    await wp.request<Record<string, TaxInfo>>({ path: '/wp/v2/taxonomies', query: { context }, as })
  ).body;
  const metaOf = (path: string): Promise<Record<string, unknown>> =>
    wp
      .request<Schema>({ path, method: 'OPTIONS', as })
      .then((r) => r.body.schema?.properties?.meta?.properties ?? {})
      .catch(() => ({}));
  const caps = {} as Record<ResourceKind, TypeCaps>;
  /** Where WRITE_META is not registered (the companion plugin is older than this gateway). */
  const unstamped: string[] = [];
  for (const kind of ['event', 'venue', 'organizer'] as const) {
    const res = mapping[kind];
    const type = types[res.postType];
    if (!type) {
      problems.push(
        `post type "${res.postType}" (${kind}s) is not registered with show_in_rest: ${FIX}, or fix mappings "${kind}.postType".`,
      );
      continue;
    }
    if (type.rest_base !== res.restBase) {
      problems.push(
        `post type "${res.postType}" has rest_base "${type.rest_base}", the mapping says "${res.restBase}": fix "${kind}.restBase".`,
      );
      continue;
    }
    caps[kind] = type.capabilities ?? {};
    const schema = (await wp.request<Schema>({ path: `/wp/v2/${res.restBase}`, method: 'OPTIONS', as })).body;
    const meta = schema.schema?.properties?.meta?.properties ?? {};
    if (!(WRITE_META in meta)) unstamped.push(`post type "${res.postType}"`);
    const missing = (Object.values(res.fields) as Array<FieldSource | undefined>)
      .filter((s): s is Extract<FieldSource, { meta: string }> => !!s && 'meta' in s)
      .map((s) => s.meta)
      .filter((k) => !(k in meta));
    if (missing.length) {
      problems.push(
        `post type "${res.postType}" does not expose meta ${missing.join(', ')} in REST: ${FIX} (it registers them with show_in_rest).`,
      );
    }
  }
  for (const name of ['categories', 'tags'] as const) {
    const tax = mapping.event[name];
    if (!tax) continue;
    const info = Object.values(taxes).find((t) => t.slug === tax.taxonomy);
    if (!info) problems.push(`taxonomy "${tax.taxonomy}" is not registered with show_in_rest: ${FIX}.`);
    else if (info.rest_base !== tax.restBase) {
      problems.push(
        `taxonomy "${tax.taxonomy}" has rest_base "${info.rest_base}", the mapping says "${tax.restBase}".`,
      );
    } else if (!info.types.includes(mapping.event.postType)) {
      problems.push(
        `taxonomy "${tax.taxonomy}" is not attached to post type "${mapping.event.postType}": ${FIX}.`,
      );
    } else if (!(WRITE_META in (await metaOf(`/wp/v2/${tax.restBase}`)))) {
      unstamped.push(`taxonomy "${tax.taxonomy}"`);
    }
  }
  if (problems.length) throw new ProbeError(problems);
  const media = await metaOf('/wp/v2/media');
  if (!(WRITE_META in media)) unstamped.push('attachments');
  const home = String(root.home ?? root.url ?? wp.siteUrl).replace(/\/+$/, '');
  return {
    name: root.name ?? '',
    home,
    timezone: siteTimezone(root),
    caps,
    mediaSourceMeta: SOURCE_URL_META in media,
    writeMeta: unstamped.length === 0,
    ...(unstamped.length ? { unstamped } : {}),
  };
}
