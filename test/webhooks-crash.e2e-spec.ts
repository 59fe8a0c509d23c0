import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { WebhookOutbox } from '../src/modules/webhooks';
import type { WebhookDeliveryPage, WebhookEndpointWithSecret } from './support/api-types';
import { createMigratedDatabase, dropDatabase } from './support/databases';
import { createTestApp, eventually, type TestApp } from './support/test-app';
import { assertBuilt, exitCodeOf, freePort, startWorker } from './support/worker-process';

/**
 * Webhook delivery is at least once across a worker crash (issue 20 point 1): a worker killed
 * (SIGKILL) while its receiver holds the request open leaves the delivery pending under a lease;
 * once the lease lapses another worker sends the message again, with the same webhook-id and body.
 *
 * The dispatcher takes due deliveries across the whole database: this spec runs on a database and
 * queues of its own, so its short leases never reach the other specs' deliveries.
 */
jest.setTimeout(120_000);

const DATABASE = `engagement_webhook_crash_${Date.now()}_${process.pid}`;
const QUEUE_PREFIX = `bull-${DATABASE}`;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver that holds the first request open (never answers it) and answers every later one 204. */
async function startHoldingReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (received.length === 1) held.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('webhook delivery across a worker crash', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startHoldingReceiver>>;
  const workers: ChildProcess[] = [];
  /** What the app and the workers share: this spec's database and queues, a loopback receiver. */
  let shared: Record<string, string>;

  beforeAll(async () => {
    assertBuilt();
    shared = { DATABASE_URL: await createMigratedDatabase(DATABASE), QUEUE_PREFIX, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
    t = await createTestApp({ ...shared, RATE_LIMIT_PER_MINUTE: '100000' });
    receiver = await startHoldingReceiver();
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
    await Promise.all(workers.map((worker) => exitCodeOf(worker)));
    await receiver?.close();
    await t?.close();
    await dropDatabase(DATABASE);
  });

  /** A worker on this spec's database and queues, with a 2 s delivery lease and a fast dispatcher. */
  async function startDeliveryWorker(): Promise<ChildProcess> {
    const worker = startWorker(await freePort(), {
      ...shared,
      JOB_LEASE_MS: '2000',
      WEBHOOK_DISPATCH_INTERVAL_MS: '200',
    });
    workers.push(worker);
    return worker;
  }

  it('a worker killed mid-send: after a restart the message is delivered, same webhook-id and body', async () => {
    const who = await t.createTenant();
    const created = await request(t.server)
      .post('/api/v1/webhook-endpoints')
      .set('x-api-key', who.key)
      .send({ url: receiver.url, eventTypes: ['custom_link.opened'] })
      .expect(201);
    const { id: endpointId, secret } = created.body as WebhookEndpointWithSecret;
    await t.app
      .get(DataSource)
      .transaction((tx) =>
        t.app.get(WebhookOutbox).record(tx, who.organizationId, 'custom_link.opened', { marker: 'crash' }),
      );

    const first = await startDeliveryWorker();
    await eventually(async () => receiver.received.length === 1, 60_000);
    first.kill('SIGKILL');
    await exitCodeOf(first);
    const deliveries = async () =>
      (
        await request(t.server)
          .get(`/api/v1/webhook-endpoints/${endpointId}/deliveries`)
          .set('x-api-key', who.key)
          .expect(200)
      ).body as WebhookDeliveryPage;
    // The attempt died with its worker: nothing was recorded, the delivery is still pending.
    expect((await deliveries()).deliveries).toEqual([expect.objectContaining({ attempt: 1, status: 'pending' })]);

    await startDeliveryWorker();
    await eventually(async () => (await deliveries()).deliveries[0].status === 'succeeded', 60_000);
    expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    const [held] = receiver.received;
    for (const copy of receiver.received) {
      expect(copy.headers['webhook-id']).toBe(held.headers['webhook-id']);
      expect(copy.body).toBe(held.body);
      expect(new Webhook(secret).verify(copy.body, copy.headers as Record<string, string>)).toMatchObject({
        type: 'custom_link.opened',
        data: { marker: 'crash' },
      });
    }
    const { deliveries: rows } = await deliveries();
    expect(rows).toEqual([
      expect.objectContaining({ attempt: 1, status: 'succeeded', messageId: held.headers['webhook-id'] }),
    ]);
  });
});
