// The ceiling: a bare node:http server answering every request with the same stored bytes and headers.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, etag, type = 'application/json; charset=utf-8'] = process.argv.slice(2);
if (!file || !etag) throw new Error('usage: node bench/raw-server.ts BODY_FILE ETAG [CONTENT_TYPE]');
const body = readFileSync(file);
const headers = {
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
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
