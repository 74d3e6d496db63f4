// A snapshot load happens before the instance is ready (src/index/registry.ts): the port answers liveness and
// readiness meanwhile from the same event loop, so the load must leave it free between its slices.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import tec from '../../mappings/tec.json' with { type: 'json' };
import { mappingSchema } from '../mapping/schema.ts';
import { noClient, silent } from './arbitraries.ts';
import type { StoredEvent } from './columns/rows.ts';
import { EventIndex } from './event-index.ts';
import { decodeSnapshot, encodeSnapshot } from './snapshot-codec.ts';

const mapping = mappingSchema.parse(tec);
const day = (i: number) =>
  `2030-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;

function event(i: number): StoredEvent {
  return {
    id: i + 1,
    status: 'publish',
    slug: `event-${i + 1}`,
    start: `${day(i)} 10:00:00`,
    end: `${day(i)} 12:00:00`,
    categories: [1 + (i % 7)],
    tags: [],
    venue: 100 + (i % 13),
    organizers: [],
    featured: false,
    hidden: false,
    parent: 0,
    protected: false,
    author: 1,
    date: '2029-01-01 00:00:00',
    modifiedGmt: '2029-01-01 00:00:00',
    hasExcerpt: false,
    searchText: `event ${i} music night in the park with friends and a long description of what happens`,
  };
}

describe('snapshot load', () => {
  it('leaves the event loop free: a liveness probe on the same process is answered before the load is over', async () => {
    const from = new EventIndex({ client: noClient, mapping, language: 'en', logger: silent });
    const r = from.restoring();
    for (let i = 0; i < 2000; i += 1000) r.add(Array.from({ length: 1000 }, (_, k) => event(i + k)));
    r.finish(null, new Date().toISOString());
    from.stop();
    const chunks: Buffer[] = [];
    for await (const c of encodeSnapshot(from)) chunks.push(c);

    // What the starting gateway answers on its port (src/gateway.ts, startingHandler), reduced to its liveness.
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok","starting":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/calendar-gateway/v1/health`;
    try {
      const into = new EventIndex({ client: noClient, mapping, language: 'en', logger: silent });
      let loaded = false;
      const loading = decodeSnapshot(into, chunks).then((ok) => {
        loaded = true;
        return ok;
      });
      const probes: boolean[] = [];
      // Probes one after another while the load runs: each one answered records whether the load was still on.
      while (!loaded) {
        const res = await fetch(url);
        expect(res.status).toBe(200);
        await res.text();
        probes.push(!loaded);
      }
      expect(await loading).toBe(true);
      expect(into.size).toBe(2000);
      expect(probes.filter(Boolean).length).toBeGreaterThan(0);
      into.stop();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
