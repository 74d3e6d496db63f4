// The start-up probe against the mock WordPress: whether every record kind the gateway creates carries a write token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSeed } from '../../mocks/seed-data.ts';
import { startMockWordPress } from '../../mocks/wordpress/index.ts';
import { loadMapping } from '../gateway.ts';
import type { Mapping } from '../mapping/schema.ts';
import { WpClient, type WpRequest } from './client.ts';
import { probeUpstream, WRITE_META } from './probe.ts';

const PASSWORD = 'probe-password';
const baseUrl = `http://wordpress-${Math.random().toString(36).slice(2, 8)}.test/wp-json`;
let mapping: Mapping;
let close: () => void;

beforeAll(async () => {
  mapping = await loadMapping('mappings/tec.json');
  close = startMockWordPress({
    mapping,
    baseUrl,
    seed: buildSeed(mapping, new Date(), { events: 2 }),
    usersPassword: PASSWORD,
  }).close;
});
afterAll(() => close?.());

/** A client whose OPTIONS answers for `without` lack WRITE_META, as with a companion plugin older than the gateway. */
function client(without: string[] = []): WpClient {
  const wp = new WpClient({
    baseUrl,
    serviceAuth: `admin:${PASSWORD}`,
    timeoutMs: 5_000,
    languageParam: mapping.language.param,
    defaultLanguage: mapping.language.default,
  });
  const request = wp.request.bind(wp);
  wp.request = (async (req: WpRequest) => {
    const res = await request<{
      schema?: { properties?: { meta?: { properties?: Record<string, unknown> } } };
    }>(req);
    if (req.method === 'OPTIONS' && without.includes(req.path))
      delete res.body.schema?.properties?.meta?.properties?.[WRITE_META];
    return res;
  }) as typeof wp.request;
  return wp;
}

describe('probeUpstream and the write token', () => {
  it('finds it registered on the mapped post types, taxonomies and attachments', async () => {
    const site = await probeUpstream(client(), mapping);
    expect(site.writeMeta).toBe(true);
    expect(site.unstamped).toBeUndefined();
  });

  it.each([
    ['/wp/v2/tags', 'taxonomy "post_tag"'],
    ['/wp/v2/tribe_venue', 'post type "tribe_venue"'],
    ['/wp/v2/media', 'attachments'],
  ])('says where it is missing (%s) and starts all the same', async (path, named) => {
    const site = await probeUpstream(client([path]), mapping);
    expect(site.writeMeta).toBe(false);
    expect(site.unstamped).toEqual([named]);
  });
});
