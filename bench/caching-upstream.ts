// A caching proxy in front of a local WordPress for `bench/uncached.ts` (BENCH_WP_CACHE=1): each GET is answered
// once by WordPress, then from memory. A miss's upstream read then costs a fraction of a millisecond instead of
// php -S's 15-200 ms (and its noise on a shared machine), so what the gateway itself adds to a miss can be measured.
// Loopback only. Usage: node bench/caching-upstream.ts http://127.0.0.1:8080
import { createServer, type OutgoingHttpHeaders, request } from 'node:http';

const [target] = process.argv.slice(2);
if (!target) throw new Error('usage: node bench/caching-upstream.ts WORDPRESS_ORIGIN');
const origin = new URL(target);
const stored = new Map<string, { status: number; headers: OutgoingHttpHeaders; body: Buffer }>();

const server = createServer((req, res) => {
  // Who asks is part of the key: WordPress answers each caller as it may see.
  const key = `${req.method} ${req.url} ${req.headers.authorization ?? ''} ${req.headers.cookie ?? ''}`;
  const hit = req.method === 'GET' ? stored.get(key) : undefined;
  if (hit) {
    res.writeHead(hit.status, hit.headers);
    res.end(hit.body);
    return;
  }
  const sent: Buffer[] = [];
  req.on('data', (c: Buffer) => sent.push(c));
  req.on('end', () => {
    const headers = { ...req.headers, host: origin.host };
    delete headers['accept-encoding'];
    const up = request(
      { host: origin.hostname, port: origin.port, path: req.url, method: req.method, headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const h: OutgoingHttpHeaders = { ...answer.headers };
          for (const k of ['connection', 'keep-alive', 'transfer-encoding', 'date']) delete h[k];
          const body = Buffer.concat(chunks);
          h['content-length'] = body.length;
          const status = answer.statusCode ?? 502;
          if (req.method === 'GET' && status === 200) stored.set(key, { status, headers: h, body });
          res.writeHead(status, h);
          res.end(body);
        });
      },
    );
    up.on('error', (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    up.end(Buffer.concat(sent));
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
