import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Response } from 'supertest';
import { DataSource, type QueryRunner } from 'typeorm';
import { JOBS_QUEUE } from '../src/modules/custom-link-jobs/jobs/custom-link-jobs.queue';
import { unique } from './support/api-responses';
import type { JobEnvelope } from './support/api-types';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';
import { redisFor } from './support/redis-cluster';
import { bullPrefix } from '../src/common/queue/bull-redis';

/**
 * Idempotency-Key claims are leases (docs/api.md §10.2, issue 18 point 3), through HTTP on link
 * creation: a slow request keeps its key while it runs, a lapsed lease is taken over only once it
 * has lapsed, only the lease's owner can store an answer, and an answer committed with the job is
 * replayed when the request fails after that commit. No workers run here (the API role and a queue
 * prefix of its own), so every job stays as the request recorded it.
 */

const LINKS = '/api/v1/custom-links';
const LEASE_MS = 1000;
const QUEUE_PREFIX = `bull-leases-${randomUUID()}`;
const CONFLICT = { detail: 'The operation conflicts with current state or idempotency history.' };
const INTERNAL = { detail: 'Internal server error.' };

interface RecordRow {
  state: string;
  lease_token: string;
  response_status: number | null;
  created_at: Date;
  lease_expires_at: Date;
  now: Date;
}

const links = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    firstName: `L${i}`,
    company: 'Co',
    externalId: `lease-${i}`,
    shareThumbnailUrl: 'https://cdn.example.com/card.png',
  }));

describe('Idempotency-Key leases', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    // Slow requests here wait on a row the test holds for many lease durations: no lock timeout cuts them short.
    t = await createTestApp({
      IDEMPOTENCY_LEASE_MS: String(LEASE_MS),
      QUEUE_PREFIX,
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
      DATABASE_LOCK_TIMEOUT_MS: '600000',
    });
    await t.app.listen(0);
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const tenant = () => t.createTenant(['custom_links:read', 'custom_links:write']);
  const post = (who: Tenant, body: object, key: string) =>
    request(t.server).post(LINKS).set('x-api-key', who.key).set('Idempotency-Key', key).send(body);
  /** Sends the request now (supertest sends on `then`) and returns its pending response. */
  const start = (who: Tenant, body: object, key: string): Promise<Response> => post(who, body, key).then((res) => res);
  const record = async (who: Tenant, key: string): Promise<RecordRow | undefined> =>
    (
      (await db.query(
        `SELECT state, lease_token, response_status, created_at, lease_expires_at, now() AS now FROM idempotency_records
        WHERE organization_id = $1 AND idempotency_key = $2`,
        [who.organizationId, key],
      )) as RecordRow[]
    )[0];
  const jobsOf = async (who: Tenant): Promise<{ id: string; total_items: number }[]> =>
    db.query(`SELECT id, total_items FROM custom_link_jobs WHERE organization_id = $1`, [who.organizationId]);

  /**
   * Holds a campaign name in an uncommitted transaction: a request filing links under that name
   * waits in its find-or-create until `release`, before its own transaction starts. Only this
   * tenant's requests wait.
   */
  async function holdCampaignName(who: Tenant, name: string): Promise<{ release: () => Promise<void> }> {
    const blocker: QueryRunner = db.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    await blocker.query(`INSERT INTO campaigns (organization_id, id, name) VALUES ($1, gen_random_uuid(), $2)`, [
      who.organizationId,
      name,
    ]);
    return {
      release: async () => {
        await blocker.rollbackTransaction();
        await blocker.release();
      },
    };
  }

  it('renews the lease of a slow request: after three lease durations it still holds its key, and retries get 409', async () => {
    const who = await tenant();
    const key = randomUUID();
    const name = unique('Slow');
    const body = { links: links(2), campaign: { name } };
    const hold = await holdCampaignName(who, name);

    const slow = start(who, body, key);
    const claimed = await readUntil(
      () => record(who, key),
      (r) => r !== undefined,
    );
    expect(claimed).toMatchObject({ state: 'in_flight', response_status: null });
    // Without renewals the lease would have lapsed twice over by now.
    const held = await readUntil(
      () => record(who, key),
      (r) => r !== undefined && r.now.getTime() - r.created_at.getTime() > 3 * LEASE_MS,
      20_000,
    );
    expect(held).toMatchObject({
      state: 'in_flight',
      lease_token: claimed?.lease_token,
      created_at: claimed?.created_at,
    });
    expect(held?.lease_expires_at.getTime()).toBeGreaterThan(held?.now.getTime() ?? Infinity);
    await post(who, body, key).expect(409, CONFLICT);

    await hold.release();
    const original = await slow;
    expect(original.status).toBe(202);
    expect(original.headers['idempotent-replayed']).toBeUndefined();
    const job = (original.body as JobEnvelope).job;

    const replay = await post(who, body, key).expect(202).expect('Idempotent-Replayed', 'true');
    expect(replay.body).toEqual(original.body);
    expect(replay.headers.location).toBe(`/api/v1/custom-link-jobs/${job.id}`);
    expect(await jobsOf(who)).toEqual([{ id: job.id, total_items: 2 }]);
  });

  it('lets a retry take over a lapsed lease only once it has lapsed, and never lets the former owner store anything', async () => {
    const who = await tenant();
    const key = randomUUID();
    const name = unique('Lapsed');
    const body = { links: links(3), campaign: { name } };
    const hold = await holdCampaignName(who, name);
    const first = start(who, body, key);
    await readUntil(
      () => record(who, key),
      (r) => r !== undefined,
    );

    // The first request stalls past its lease and another claim takes the key (its renewals no
    // longer match): the thief's lease runs two more seconds and is never renewed.
    const [[stolen]] = (await db.query(
      `UPDATE idempotency_records SET lease_token = $3, lease_expires_at = now() + interval '2 seconds'
        WHERE organization_id = $1 AND idempotency_key = $2 RETURNING lease_token, lease_expires_at`,
      [who.organizationId, key, randomUUID()],
    )) as [{ lease_token: string; lease_expires_at: Date }[], number];
    await post(who, body, key).expect(409, CONFLICT);

    // The first request resumes: its transaction cannot store its answer, so its job rolls back.
    await hold.release();
    const lost = await first;
    expect(lost.status).toBe(409);
    expect(lost.body).toEqual(CONFLICT);
    expect(await jobsOf(who)).toEqual([]);
    expect(await record(who, key)).toMatchObject({
      state: 'in_flight',
      lease_token: stolen.lease_token,
      response_status: null,
    });

    // Once the lease lapsed, the same request takes the key over; a different one never does.
    await readUntil(
      () => record(who, key),
      (r) => r !== undefined && r.now.getTime() > stolen.lease_expires_at.getTime(),
    );
    await post(who, { ...body, links: links(4) }, key).expect(409, CONFLICT);
    const retried = await post(who, body, key).expect(202);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const taken = await record(who, key);
    expect(taken).toMatchObject({ state: 'completed', response_status: 202 });
    expect(taken?.lease_token).not.toBe(stolen.lease_token);
    expect(taken?.created_at.getTime()).toBeGreaterThanOrEqual(stolen.lease_expires_at.getTime());

    const job = (retried.body as JobEnvelope).job;
    expect(await jobsOf(who)).toEqual([{ id: job.id, total_items: 3 }]);
    await post(who, body, key).expect(202, retried.body).expect('Idempotent-Replayed', 'true');
  });

  it('replays the answer committed with the job when the request fails after the commit, and records no second job', async () => {
    const who = await tenant();
    const key = randomUUID();
    const body = { links: links(2) };
    const redis = redisFor(t.config);
    // The queue refuses the job after its transaction committed (WRONGTYPE on its wait list).
    const waitList = `${bullPrefix(QUEUE_PREFIX, t.config.redis)}:${JOBS_QUEUE}:wait`;
    try {
      await redis.set(waitList, 'not a list');
      await post(who, body, key).expect(500, INTERNAL);
      const [job] = await jobsOf(who);
      expect(job).toMatchObject({ total_items: 2 });
      expect(await record(who, key)).toMatchObject({ state: 'completed', response_status: 202 });

      await redis.del(waitList);
      const replay = await post(who, body, key).expect(202).expect('Idempotent-Replayed', 'true');
      expect((replay.body as JobEnvelope).job).toMatchObject({ id: job.id, status: 'queued', totalItems: 2 });
      expect(replay.headers.location).toBe(`/api/v1/custom-link-jobs/${job.id}`);
      expect(await jobsOf(who)).toEqual([job]);
    } finally {
      await redis.del(waitList);
      await redis.quit();
    }
  });

  it('answers 409 while a request that committed is still running, and replays its committed answer once its lease lapsed', async () => {
    const who = await tenant();
    const key = randomUUID();
    const body = { links: links(1) };
    const original = await post(who, body, key).expect(202);
    // As the record stands when the job's transaction committed and its process is still on its
    // way to answering (two more seconds of lease), then dies.
    const [[committed]] = (await db.query(
      `UPDATE idempotency_records SET state = 'committed', lease_token = $3, lease_expires_at = now() + interval '2 seconds'
        WHERE organization_id = $1 AND idempotency_key = $2 RETURNING lease_token, lease_expires_at`,
      [who.organizationId, key, randomUUID()],
    )) as [{ lease_token: string; lease_expires_at: Date }[], number];

    await post(who, body, key).expect(409, CONFLICT);
    await readUntil(
      () => record(who, key),
      (r) => r !== undefined && r.now.getTime() > committed.lease_expires_at.getTime(),
    );
    await post(who, body, key).expect(202, original.body).expect('Idempotent-Replayed', 'true');
    // Replayed, not taken over: the job exists once.
    expect(await record(who, key)).toMatchObject({ state: 'committed', lease_token: committed.lease_token });
    expect((await jobsOf(who)).map((j) => j.id)).toEqual([(original.body as JobEnvelope).job.id]);
  });
});
