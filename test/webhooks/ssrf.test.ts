// Webhook targets are checked when each connection is made, without WEBHOOK_ALLOW_PRIVATE_TARGETS: every non-public
// range is refused, an IP literal too, and a name that resolved public when saved and private when sent (DNS
// rebinding) reaches nothing. The receivers listen on 127.0.0.1 and count connections: none may arrive.
import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedAgent } from '../../src/webhooks/guard.ts';
import { WebhookAdmin } from '../../src/webhooks/manage.ts';
import { send } from '../../src/webhooks/send.ts';
import type { Webhooks } from '../../src/webhooks/service.ts';
import { change, instance, type Receiver, receiver, TestLog, until } from './support.ts';

const open: Array<Receiver | Webhooks> = [];
afterEach(async () => {
  for (const x of open.splice(0)) await ('stop' in x ? x.stop() : x.close());
});

const PUBLIC = '93.184.215.14';
const portOf = (r: Receiver) => new URL(r.url).port;

describe('webhook targets', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '192.0.0.8',
    '198.18.0.1',
    '240.0.0.1',
    '224.0.0.251',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::7f00:1',
  ])('refuses a name resolving to %s when connecting, and nothing reaches the receiver', async (address) => {
    const r = await receiver();
    open.push(r);
    const family = address.includes(':') ? 6 : 4;
    const agent = guardedAgent({
      allowPrivate: false,
      timeoutMs: 2000,
      resolve: async () => [{ address, family }],
    });
    const out = await send(agent, `https://hooks.example:${portOf(r)}/hook`, {}, '{}', 2000);
    await agent.close();
    expect(out).toMatchObject({ status: 0, error: 'refused' });
    expect(out.response).toContain(address);
    expect(r.connections).toBe(0);
  });

  it.each(['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]'])(
    'refuses the address literal %s without asking DNS',
    async (host) => {
      const r = await receiver();
      open.push(r);
      let asked = 0;
      const agent = guardedAgent({
        allowPrivate: false,
        timeoutMs: 2000,
        resolve: async () => {
          asked++;
          return [{ address: PUBLIC, family: 4 }];
        },
      });
      const out = await send(agent, `https://${host}:${portOf(r)}/hook`, {}, '{}', 2000);
      await agent.close();
      expect(out.error).toBe('refused');
      expect(asked).toBe(0);
      expect(r.connections).toBe(0);
    },
  );

  it('refuses to save an http URL or a name that resolves privately now', async () => {
    const w = instance({ allowPrivate: false, resolve: async () => [{ address: '10.1.1.1', family: 4 }] });
    open.push(w);
    const admin = new WebhookAdmin(w);
    await expect(admin.create({ url: 'http://hooks.example/x', types: ['*'] })).rejects.toMatchObject({
      status: 400,
      data: { params: { url: expect.stringMatching(/must be https/) } },
    });
    await expect(admin.create({ url: 'https://hooks.example/x', types: ['*'] })).rejects.toMatchObject({
      status: 400,
      data: { params: { url: expect.stringMatching(/10\.1\.1\.1 is in a non-public range \(private\)/) } },
    });
  });

  it('checks again at send time: a name public when saved and loopback when sent (DNS rebinding) reaches nothing', async () => {
    const r = await receiver();
    open.push(r);
    const answers: LookupAddress[][] = [[{ address: PUBLIC, family: 4 }]];
    const resolve = async () => answers.shift() ?? [{ address: '127.0.0.1', family: 4 }];
    const log = new TestLog();
    const w = instance({ allowPrivate: false, resolve, changes: log });
    open.push(w);
    const sub = await new WebhookAdmin(w).create({
      url: `https://rebind.example:${portOf(r)}/hook`,
      types: ['*'],
    });
    expect(answers).toHaveLength(0);
    await log.append(change(5));
    const [attempt] = await until('an attempt', () =>
      w.queue.attempts(sub.id).then((a) => a.length > 0 && a),
    );
    expect(attempt).toMatchObject({ status: 0, outcome: 'refused' });
    expect(attempt!.response).toMatch(/127\.0\.0\.1 is in a non-public range \(loopback\)/);
    expect(r.connections).toBe(0);
    // Refused is a failure like any other: retried on the schedule, never sent.
    await until('a second attempt', () => w.queue.attempts(sub.id).then((a) => a.length > 1));
    expect(r.connections).toBe(0);
  });
});
