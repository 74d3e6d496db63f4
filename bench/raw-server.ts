// The ceiling: a bare node:http server answering every request with the same stored bytes and headers.
// RAW_HEADERS_FILE (a JSON list of [name, value] pairs): send exactly these headers instead of the usual four, e.g.
// the gateway's own list (bench/ceiling.ts's second row), so the headers' own cost in Node can be told apart.
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';

const [file, etag, type = 'application/json; charset=utf-8'] = process.argv.slice(2);
if (!file || !etag) throw new Error('usage: node bench/raw-server.ts BODY_FILE ETAG [CONTENT_TYPE]');
const body = readFileSync(file);
const listFile = process.env.RAW_HEADERS_FILE;
// The gateway hands writeHead a flat list; so does this server when it mirrors the gateway.
const headers: OutgoingHttpHeaders | Array<string | number> = listFile
  ? (JSON.parse(readFileSync(listFile, 'utf8')) as Array<[string, string]>).flatMap(([k, v]) =>
      k === 'content-length' ? [k, body.length] : [k, v],
    )
  : {
      'content-type': type,
      'content-length': body.length,
      etag,
      'cache-control': 'public, max-age=60',
    };
const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 65_000;
// An orderly exit on the bench's SIGTERM, so that `--cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
