// Assembles a running gateway from a configuration: client, probe, index, app, HTTP server.

import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.ts';
import { fastServe } from './cache/fast-path.ts';
import { createCacheLayer } from './cache/setup.ts';
import type { Config } from './config.ts';
import { ConfigError } from './config.ts';
import type { Deps } from './deps.ts';
import { originRule } from './http/cors.ts';
import { IndexRegistry } from './index/registry.ts';
import { createLogger, type Logger } from './log.ts';
import { type Mapping, mappingSchema } from './mapping/schema.ts';
import { RemoteImages } from './media/remote-image.ts';
import { CallerResolver } from './wp/caller.ts';
import { WpClient } from './wp/client.ts';
import { probeUpstream, SOURCE_URL_META } from './wp/probe.ts';
import { RecordCache } from './wp/records.ts';
import { TermCache } from './wp/terms.ts';

export interface Gateway {
  deps: Deps;
  server: Server;
  /** `http://127.0.0.1:PORT` */
  url: string;
  close(): Promise<void>;
}

export async function loadMapping(path: string): Promise<Mapping> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new ConfigError(
      `Mapping file ${path} cannot be read: set MAPPING (--mapping) to a file under mappings/.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`Mapping file ${path} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = mappingSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Mapping file ${path} is not a valid mapping:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export async function startGateway(
  config: Config & { upstreamUrl: string },
  opts: { log?: Logger; now?: () => Date; quiet?: boolean } = {},
): Promise<Gateway> {
  const log = opts.log ?? createLogger(config.logLevel);
  const mapping = await loadMapping(config.mapping);
  const wp = new WpClient({
    baseUrl: config.upstreamUrl,
    serviceAuth: config.upstreamAuth,
    timeoutMs: config.upstreamTimeoutMs,
    languageParam: mapping.language.param,
    defaultLanguage: mapping.language.default,
  });
  if (!config.upstreamAuth) {
    log.warn(
      'UPSTREAM_AUTH is not set: the event index only sees published events, so editors see no drafts in lists.',
    );
  }
  const site = await probeUpstream(wp, mapping);
  if (!site.mediaSourceMeta) {
    log.info(
      `Attachments do not expose ${SOURCE_URL_META} in REST (the companion plugin registers it): an image URL sent again is uploaded again.`,
    );
  }
  const caching = createCacheLayer(config, log);
  const indexes = new IndexRegistry({
    snapshots: caching.snapshots,
    onChange: caching.onIndexChange,
    client: wp,
    mapping,
    pollMs: config.pollIntervalMs > 0 ? config.pollIntervalMs : false,
    reconcileMs: config.reconcileIntervalMs,
    logger: log,
  });
  const deps: Deps = {
    mapping,
    wp,
    site,
    indexes,
    callers: new CallerResolver(wp),
    terms: new TermCache(wp),
    log,
    images: new RemoteImages({
      allowPrivateHosts: config.imageAllowPrivateHosts,
      maxBytes: Math.round(config.imageMaxMb * 1024 * 1024),
      timeoutMs: config.upstreamTimeoutMs,
    }),
    now: opts.now ?? (() => new Date()),
    cache: caching.cache,
  };
  if (caching.cache) {
    const records = new RecordCache(config.cacheTtlSeconds * 1000);
    caching.cache.onInvalidate((tags) => records.drop(tags));
    deps.records = records;
  }
  caching.freshness?.attach(indexes);
  await indexes.forLanguage(mapping.language.default);
  const allowOrigin = originRule(config.corsOrigins);
  const app = createApp(deps, {
    allowOrigin,
    publicUrl: config.publicUrl,
    secondaryLanguage: config.secondaryLanguage,
    webhookSecret: config.webhookSecret,
  });
  const server = await new Promise<Server>((resolve, reject) => {
    // Stored anonymous answers are sent before express sees the request (design: near the node:http ceiling).
    const cache = deps.cache;
    const s = createServer(
      cache ? (req, res) => fastServe(cache, req, res, allowOrigin) || app(req, res) : app,
    );
    s.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  return {
    deps,
    server,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      indexes.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await caching.close();
    },
  };
}
