import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { ScratchRedis } from './support/scratch-redis';
import { createTestApp, readUntil, type TestApp } from './support/test-app';

/**
 * A Redis restart that loses everything (no persistence, as the machine's Redis and a managed one
 * without AOF) mid-day, under two API instances (issue 18 point 6; docs/operations.md "Redis
 * restart"). The daily transcript quota is counted in PostgreSQL and still holds; the request rate
 * (a 60 s window) starts again from zero, as documented.
 */

const LIMIT = 10;
const LIMITED = { detail: 'Rate limit or organization quota exceeded.' };

describe('limits across a Redis restart', () => {
  let scratch: ScratchRedis;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    scratch = await ScratchRedis.start();
    const env = {
      REDIS_URL: scratch.url(),
      // Queues of their own on the test's Redis; nothing here runs jobs.
      QUEUE_PREFIX: `bull-restart-${randomUUID().slice(0, 8)}`,
      TRANSCRIPT_DAILY_LIMIT: String(LIMIT),
      RATE_LIMIT_PER_MINUTE: '50',
    };
    a = await createTestApp(env);
    b = await createTestApp(env);
  });

  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    await scratch.stop();
  });

  it('keeps the daily transcript quota (PostgreSQL) while the request-rate window starts again', async () => {
    const who = await a.createTenant();
    const sessionId = newSessionId();
    await ingest(
      a.server,
      who.key,
      sessionId,
      sessionBody({ transcript: { entries: [{ speaker: 'agent', text: 'Hello.', sequenceNumber: 1 }] } }),
    ).expect(200);
    const read = (app: TestApp) =>
      request(app.server).get(`/api/v1/sessions/${sessionId}/transcript`).set('x-api-key', who.key);

    // 7 of the 10 reads, on both instances; with the ingestion, 8 requests of the key's 50 a minute.
    for (let i = 0; i < 6; i++) await read(i % 2 ? b : a).expect(200);
    const before = await read(a).expect(200);
    expect(before.headers['x-ratelimit-remaining']).toBe(String(50 - 8));

    await scratch.restart();
    const fresh = new Redis(scratch.url());
    try {
      expect(await fresh.dbsize()).toBe(0);
    } finally {
      fresh.disconnect();
    }
    // Both instances reconnect by themselves.
    for (const app of [a, b])
      await readUntil(
        () => request(app.server).get('/readyz'),
        (res) => res.status === 200,
        15_000,
      );

    // The request rate lost its window: the next request opens a new one.
    const after = await read(b).expect(200);
    expect(after.headers['x-ratelimit-remaining']).toBe(String(50 - 1));

    // The quota did not: 8 reads were taken (7 before the restart, 1 after), so 2 are left, whatever
    // the instance and however many ask at once.
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => read(i % 2 ? a : b)));
    expect(responses.filter((res) => res.status === 200)).toHaveLength(2);
    const refused = responses.filter((res) => res.status !== 200);
    expect(refused).toHaveLength(8);
    for (const res of refused) {
      expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 429, body: LIMITED });
      expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
    }
    const [{ reads }] = await a.app
      .get(DataSource)
      .query<{ reads: number }[]>(`SELECT reads FROM transcript_daily_reads WHERE organization_id = $1`, [
        who.organizationId,
      ]);
    expect(reads).toBe(LIMIT);
  });
});
