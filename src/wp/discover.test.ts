import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLinkOf, discoverRestRoot } from './discover.ts';

describe('apiLinkOf', () => {
  it.each<[string | null, string | undefined]>([
    ['<https://example.com/wp-json/>; rel="https://api.w.org/"', 'https://example.com/wp-json/'],
    [
      '<https://example.com/?p=1>; rel=shortlink, <https://example.com/wp-json/>; rel="https://api.w.org/"',
      'https://example.com/wp-json/',
    ],
    ['<https://example.com/wp-json/wp/v2/pages/2>; rel="alternate"; type="application/json"', undefined],
    ['<https://example.com/wp-json/>; rel=https://api.w.org/', 'https://example.com/wp-json/'],
    [null, undefined],
  ])('reads %j', (header, root) => {
    expect(apiLinkOf(header)).toBe(root);
  });
});

/**
 * A WordPress on loopback whose `home` is `http://127.0.0.1:PORT{prefix}`: it answers under any host name (as
 * `localhost` too), and names itself by its home in its Link header and REST index, as WordPress does.
 */
describe('discoverRestRoot, when the site names itself by another host than UPSTREAM_URL', () => {
  let server: Server;
  let port: number;
  let site = { prefix: '', home: '', redirectRoot: false };
  const named = () => `http://127.0.0.1:${port}${site.prefix}`;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      if (path === `${site.prefix}/wp-json/`) {
        if (site.redirectRoot && req.headers.host !== `127.0.0.1:${port}`) {
          res.writeHead(301, { Location: `${named()}/wp-json/` }).end();
          return;
        }
        const home = site.home || named();
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ name: 'Site', url: home, home, namespaces: ['wp/v2'] }));
        return;
      }
      if (path === `${site.prefix}/`) {
        res.writeHead(200, {
          'Content-Type': 'text/html',
          Link: `<${named()}/wp-json/>; rel="https://api.w.org/"`,
        });
        res.end('<p>home</p>');
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("keeps the operator's host for the site URL, and reports the site's own name", async () => {
    site = { prefix: '', home: '', redirectRoot: false };
    expect(await discoverRestRoot(`http://localhost:${port}`, 5000)).toEqual({
      root: `http://localhost:${port}/wp-json`,
      canonical: `http://127.0.0.1:${port}/wp-json`,
      status: 200,
      moved: true,
    });
  });

  it('keeps the path of a site in a sub-directory', async () => {
    site = { prefix: '/blog', home: '', redirectRoot: false };
    expect(await discoverRestRoot(`http://localhost:${port}/blog/`, 5000)).toMatchObject({
      root: `http://localhost:${port}/blog/wp-json`,
      canonical: `http://127.0.0.1:${port}/blog/wp-json`,
    });
  });

  it("reports the site's own name for a REST root given as it is", async () => {
    site = { prefix: '', home: '', redirectRoot: false };
    expect(await discoverRestRoot(`http://localhost:${port}/wp-json/`, 5000)).toEqual({
      root: `http://localhost:${port}/wp-json`,
      canonical: `http://127.0.0.1:${port}/wp-json`,
      status: 200,
      moved: false,
    });
  });

  it('names no other root when the host is the one the site names itself by', async () => {
    site = { prefix: '', home: '', redirectRoot: false };
    expect(await discoverRestRoot(`http://127.0.0.1:${port}`, 5000)).toEqual({
      root: `http://127.0.0.1:${port}/wp-json`,
      status: 200,
      moved: true,
    });
  });

  it("follows the Link when the operator's host serves another site (a multisite's other home)", async () => {
    site = { prefix: '', home: 'http://other.example', redirectRoot: false };
    const found = await discoverRestRoot(`http://localhost:${port}`, 5000);
    expect(found.root).toBe(`http://127.0.0.1:${port}/wp-json`);
    expect(found.canonical).toBeUndefined();
  });

  it("follows the Link when the operator's host only redirects there (writes must not go through a redirect)", async () => {
    site = { prefix: '', home: '', redirectRoot: true };
    const found = await discoverRestRoot(`http://localhost:${port}`, 5000);
    expect(found.root).toBe(`http://127.0.0.1:${port}/wp-json`);
    expect(found.canonical).toBeUndefined();
  });
});
