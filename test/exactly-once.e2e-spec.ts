import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { LINK_LIST } from '../src/modules/custom-links/link-list';
import { JOBS_QUEUE } from '../src/modules/custom-link-jobs/jobs/custom-link-jobs.queue';
import type { Job, JobEnvelope } from './support/api-types';
import { createTestApp, readUntil, type Tenant, type TestApp } from './support/test-app';
import { redisFor } from './support/redis-cluster';

/**
 * Requests that race or repeat run once (issue 18 point 3), through HTTP with the app's own workers
 * on a queue prefix of its own: parallel creations under one Idempotency-Key make one job, and
 * retries of a job (the same parent twice, concurrently, or a retry of a retry) re-run each item at
 * most once, so no item ever yields two links.
 */

const LINKS = '/api/v1/custom-links';
const JOBS = '/api/v1/custom-link-jobs';
const CONFLICT = { detail: 'The operation conflicts with current state or idempotency history.' };
const TERMINAL = ['completed', 'completed_with_errors', 'cancelled', 'failed'];
const INTERNAL = { detail: 'Internal server error.' };

const links = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => ({
    firstName: `P${i}`,
    company: 'Co',
    externalId: `${prefix}-${i}`,
    shareThumbnailUrl: 'https://cdn.example.com/card.png',
  }));

describe('exactly once', () => {
  let t: TestApp;
  let db: DataSource;
  let queue: Queue;

  beforeAll(async () => {
    t = await createTestApp({
      APP_ROLE: 'all',
      QUEUE_PREFIX: `bull-once-${randomUUID()}`,
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
    });
    await t.app.listen(0);
    db = t.app.get(DataSource);
    queue = t.app.get<Queue>(getQueueToken(JOBS_QUEUE));
  });
  afterAll(async () => {
    await queue.resume();
    await t.close();
  });

  const tenant = () => t.createTenant(['custom_links:read', 'custom_links:write']);
  const create = (who: Tenant, body: object, key: string = randomUUID()) =>
    request(t.server).post(LINKS).set('x-api-key', who.key).set('Idempotency-Key', key).send(body);
  const retry = (who: Tenant, id: string) => request(t.server).post(`${JOBS}/${id}/retry`).set('x-api-key', who.key);
  const cancel = (who: Tenant, id: string) => request(t.server).post(`${JOBS}/${id}/cancel`).set('x-api-key', who.key);
  const getJob = async (who: Tenant, id: string): Promise<Job> =>
    (await request(t.server).get(`${JOBS}/${id}`).set('x-api-key', who.key).expect(200)).body as Job;
  const settled = (who: Tenant, id: string) =>
    readUntil(
      () => getJob(who, id),
      (job) => TERMINAL.includes(job.status),
    );
  const jobCount = async (who: Tenant) =>
    Number(
      (
        (await db.query(`SELECT count(*) AS n FROM custom_link_jobs WHERE organization_id = $1`, [
          who.organizationId,
        ])) as { n: string }[]
      )[0].n,
    );
  /** Links per external id, straight from the table. */
  const linksByExternalId = async (who: Tenant): Promise<Record<string, number>> => {
    const rows: { external_id: string; n: string }[] = await db.query(
      `SELECT external_id, count(*) AS n FROM custom_links WHERE organization_id = $1 GROUP BY external_id ORDER BY external_id`,
      [who.organizationId],
    );
    return Object.fromEntries(rows.map((r) => [r.external_id, Number(r.n)]));
  };
  const once = (prefix: string, n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}-${i}`, 1]).sort());

  it('20 parallel creations with one Idempotency-Key make one job and its links once; each answers 202 (original or replay) or 409', async () => {
    const who = await tenant();
    const key = randomUUID();
    const body = { links: links(25, 'par') };

    const responses = await Promise.all(Array.from({ length: 20 }, () => create(who, body, key)));

    const originals = responses.filter((r) => r.status === 202 && r.headers['idempotent-replayed'] === undefined);
    expect(originals).toHaveLength(1);
    const job = (originals[0].body as JobEnvelope).job;
    for (const res of responses) {
      if (res.status === 409) {
        expect(res.body).toEqual(CONFLICT);
        continue;
      }
      expect(res.status).toBe(202);
      expect(res.body).toEqual(originals[0].body);
      expect(res.headers.location).toBe(`${JOBS}/${job.id}`);
    }
    expect(await jobCount(who)).toBe(1);
    expect(await settled(who, job.id)).toMatchObject({ status: 'completed', createdCount: 25 });
    expect(await linksByExternalId(who)).toEqual(once('par', 25));
    // Afterwards the key replays.
    await create(who, body, key).expect(202, originals[0].body).expect('Idempotent-Replayed', 'true');
  });

  it('re-runs each item at most once however a job is retried: the same parent twice, concurrently, or a retry of a retry', async () => {
    const who = await tenant();
    // Paused, the workers leave jobs queued, so a cancel settles every item as cancelled at once.
    await queue.pause();
    const parent = ((await create(who, { links: links(5, 'chain') }).expect(202)).body as JobEnvelope).job;
    expect(((await cancel(who, parent.id).expect(200)).body as Job).status).toBe('cancelled');

    // Ten concurrent retries of one parent: one child, the rest 409.
    const racing = await Promise.all(Array.from({ length: 10 }, () => retry(who, parent.id)));
    const accepted = racing.filter((r) => r.status === 202);
    expect(accepted).toHaveLength(1);
    for (const res of racing.filter((r) => r.status !== 202)) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual(CONFLICT);
    }
    const child = (accepted[0].body as JobEnvelope).job;
    expect(child).toMatchObject({ parentJobId: parent.id, totalItems: 5 });
    // The same parent again, later: its items were all handed to the child.
    await retry(who, parent.id).expect(409, CONFLICT);

    // The child is cancelled too and retried in turn: a grandchild over the same five items.
    expect(((await cancel(who, child.id).expect(200)).body as Job).status).toBe('cancelled');
    const grandchild = ((await retry(who, child.id).expect(202)).body as JobEnvelope).job;
    expect(grandchild).toMatchObject({ parentJobId: child.id, totalItems: 5 });
    await retry(who, child.id).expect(409, CONFLICT);
    await retry(who, parent.id).expect(409, CONFLICT);
    expect(await jobCount(who)).toBe(3);

    await queue.resume();
    expect(await settled(who, grandchild.id)).toMatchObject({ status: 'completed', createdCount: 5 });
    expect(await linksByExternalId(who)).toEqual(once('chain', 5));
    // Nothing left to retry anywhere along the chain.
    for (const id of [parent.id, child.id, grandchild.id]) await retry(who, id).expect(409, CONFLICT);
    expect(await linksByExternalId(who)).toEqual(once('chain', 5));

    // Each item names the item it re-runs, and the database refuses a second re-run of one.
    const retried: { job_id: string; index: number; retry_of_job_id: string; retry_of_index: number }[] =
      await db.query(
        `SELECT job_id, index, retry_of_job_id, retry_of_index FROM custom_link_job_items
        WHERE organization_id = $1 AND retry_of_job_id IS NOT NULL ORDER BY retry_of_job_id = $2 DESC, index`,
        [who.organizationId, parent.id],
      );
    expect(retried).toEqual([
      ...[0, 1, 2, 3, 4].map((i) => ({ job_id: child.id, index: i, retry_of_job_id: parent.id, retry_of_index: i })),
      ...[0, 1, 2, 3, 4].map((i) => ({
        job_id: grandchild.id,
        index: i,
        retry_of_job_id: child.id,
        retry_of_index: i,
      })),
    ]);
    await expect(
      db.query(
        `INSERT INTO custom_link_job_items (organization_id, job_id, index, status, custom_link_id, input, retry_of_job_id, retry_of_index)
         VALUES ($1, $2, 99, 'queued', gen_random_uuid(), '{}', $3, 0)`,
        [who.organizationId, grandchild.id, parent.id],
      ),
    ).rejects.toMatchObject({
      // On Citus the shard's index answers: its name carries the shard's number.
      driverError: { code: '23505', message: expect.stringContaining('custom_link_job_items_retry_of_key') },
    });
  });

  it('a PATCH that fails after its commit is replayed, not run again: one thumbnail job', async () => {
    const who = await tenant();
    const job = ((await create(who, { links: links(1, 'patch') }).expect(202)).body as JobEnvelope).job;
    await settled(who, job.id);
    const [{ id: linkId }]: { id: string }[] = await db.query(
      `SELECT id FROM custom_links WHERE organization_id = $1`,
      [who.organizationId],
    );
    const key = randomUUID();
    const body = { firstName: 'Renamed', shareThumbnailUrl: 'https://cdn.example.com/other.png' };
    const patch = () =>
      request(t.server).patch(`${LINKS}/${linkId}`).set('x-api-key', who.key).set('Idempotency-Key', key).send(body);
    const thumbnailJobs = async () =>
      Number(
        (
          (await db.query(
            `SELECT count(*) AS n FROM custom_link_jobs WHERE organization_id = $1 AND type = 'thumbnail'`,
            [who.organizationId],
          )) as { n: string }[]
        )[0].n,
      );

    // The link list's count-cache version is bumped after the commit; a non-integer there makes that step fail.
    const redis = redisFor(t.config);
    const version = `count-version:${LINK_LIST}:${who.organizationId}`;
    try {
      await redis.set(version, 'not a number');
      await patch().expect(500, INTERNAL);
      expect(await thumbnailJobs()).toBe(1);
      await redis.del(version);

      const replay = await patch().expect(200).expect('Idempotent-Replayed', 'true');
      expect(replay.body).toMatchObject({
        customLink: { id: linkId, firstName: 'Renamed', thumbnailStatus: 'provided' },
        job: { type: 'thumbnail', totalItems: 1 },
      });
      expect(await thumbnailJobs()).toBe(1);
    } finally {
      await redis.del(version);
      await redis.quit();
    }
  });
});
