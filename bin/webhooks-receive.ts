// `npm run webhooks:receive`: a webhook receiver for local development. It subscribes itself to a running gateway
// (the demo by default: admin and $DEMO_PASSWORD), then prints each delivery, its signature checked by the
// standardwebhooks package. Ctrl-C removes the subscription.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';

const { values } = parseArgs({
  options: {
    gateway: { type: 'string', default: process.env.GATEWAY_URL ?? 'http://localhost:3000' },
    user: { type: 'string', default: process.env.GATEWAY_USER ?? 'admin' },
    password: { type: 'string', default: process.env.DEMO_PASSWORD },
    types: { type: 'string', default: '*' },
    port: { type: 'string', default: '0' },
    private: { type: 'boolean', default: false },
  },
});
if (!values.password) {
  process.stderr.write(
    'Set DEMO_PASSWORD (the demo prints the line to paste) or pass --password: an administrator subscribes the receiver.\n',
  );
  process.exit(2);
}
const gateway = values.gateway.replace(/\/$/, '');
const auth = `Basic ${Buffer.from(`${values.user}:${values.password}`).toString('base64')}`;
const api = `${gateway}/calendar-gateway/v1/webhooks`;

let verifier: Webhook | undefined;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      const payload = verifier!.verify(body, req.headers as Record<string, string>) as {
        type: string;
        data: { id: number; rest_url: string; tags: string[] };
      };
      const at = new Date().toISOString().slice(11, 23);
      process.stdout.write(
        `${at}  ${payload.type.padEnd(18)} id ${payload.data.id}  signature ok  ${req.headers['webhook-id']}\n` +
          `              ${payload.data.rest_url}\n              tags: ${payload.data.tags.join(', ')}\n`,
      );
      res.writeHead(204).end();
    } catch (err) {
      process.stdout.write(`refused a delivery: ${(err as Error).message}\n`);
      res.writeHead(400).end('bad signature');
    }
  });
});
server.listen(Number(values.port), '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  const made = await fetch(api, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      url,
      types: values.types.split(','),
      private: values.private,
      description: 'npm run webhooks:receive',
    }),
  }).catch((err: Error) => {
    process.stderr.write(`${gateway} cannot be reached (${err.message}): start it with npm start.\n`);
    process.exit(1);
  });
  const sub = (await made.json()) as { id: string; secret: string; message?: string };
  if (made.status !== 201) {
    process.stderr.write(`The gateway refused the subscription (${made.status}): ${sub.message}\n`);
    process.exit(1);
  }
  verifier = new Webhook(sub.secret);
  process.stdout.write(
    `Receiving on ${url} as subscription ${sub.id}. Change something, for example:\n` +
      `  curl -u "editor:$DEMO_PASSWORD" -H 'Content-Type: application/json' \\\n` +
      `    -d '{"title": "Webhook test", "start_date": "tomorrow 18:00", "end_date": "tomorrow 20:00"}' \\\n` +
      `    ${gateway}/wp-json/calendar/events/v1/events\n`,
  );
  const stop = async () => {
    await fetch(`${api}/${sub.id}`, { method: 'DELETE', headers: { authorization: auth } }).catch(() => {});
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
});
