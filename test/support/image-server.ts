// A loopback HTTP server that serves real PNG images and the failures an image URL can have, for sideload tests.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

/** A valid RGB PNG of the given size (grey pixels), built from its chunks. */
export function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, default compression/filter/interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x80)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface ImageServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Requests seen, as `METHOD /path`. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * Routes: `/img/<w>x<h>/<name>` a PNG of that size (any name, also without extension); `/page.html` HTML;
 * `/missing.png` 404; `/moved.png` a redirect; `/big.png` a body larger than `bigBytes` without a length;
 * `/slow.png` never answers; `/liar.png` says image/png but sends text.
 */
export async function startImageServer(bigBytes = 64 * 1024): Promise<ImageServer> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push(`${req.method} ${path}`);
    const size = /^\/img\/(\d+)x(\d+)\//.exec(path);
    if (size) {
      const body = png(Number(size[1]), Number(size[2]));
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    } else if (path === '/page.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<p>not an image</p>');
    } else if (path === '/moved.png') {
      res.writeHead(302, { Location: '/img/2x2/moved.png' });
      res.end();
    } else if (path === '/big.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      if (req.method === 'HEAD') res.end();
      else res.end(Buffer.alloc(bigBytes + 1, 1));
    } else if (path === '/slow.png') {
      // Never answers; the client's timeout must end it.
    } else if (path === '/liar.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(req.method === 'HEAD' ? undefined : 'this is text, not a PNG');
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
