import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { ChildProcess } from 'node:child_process';
import { hostname } from 'node:os';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AGENT_PUBLISH_QUEUE } from '../src/modules/agent/jobs/publish.queue';
import { JOBS_QUEUE } from '../src/modules/custom-link-jobs/jobs/custom-link-jobs.queue';
import type { Agent, Job, JobEnvelope, PublishJob } from './support/api-types';
import { createMigratedDatabase, dropDatabase } from './support/databases';
import { createTestApp, eventually, readUntil, type Tenant, type TestApp } from './support/test-app';
import { assertBuilt, freePort, startWorker } from './support/worker-process';

/**
 * Issue 18 point 4: however many times a worker is killed (SIGKILL), every job reaches its terminal
 * state with each item done exactly once. Bull hands a job whose worker died back to the queue once
 * (QUEUE_LOCK_DURATION_MS, QUEUE_STALLED_INTERVAL_MS); the second time it fails it as stalled, and
 * the reaper (JOB_LEASE_MS, JOB_REAPER_INTERVAL_MS) queues it again once its lease lapsed, as it does
 * for a job recorded but never queued. Short leases and sweeps make that take seconds.
 *
 * The reaper sweeps a whole database: this spec runs on a database and queues of its own, so its
 * short leases never reach the other specs' jobs, nor theirs its own. `CRASH_FIGURES=1` prints how
 * long recovery took.
 */
const LINKS = 500;
const LEASE_MS = 3000;
const SWEEP_MS = 500;
const DATABASE = `engagement_crash_${Date.now()}_${process.pid}`;
const QUEUE_PREFIX = `bull-${DATABASE}`;
const REQUEUED = 'Re-queued a job whose lease lapsed';

interface Worker {
  /** The lease owner it writes on the rows it works on (JobLeases: host name and process id). */
  owner: string;
  /** Its JSON log lines so far (LOG_LEVEL=warn: the reaper's re-queues among them). */
  logs: Record<string, unknown>[];
  kill(): Promise<void>;
}

describe('workers killed again and again', () => {
  let databaseUrl: string;
  let t: TestApp;
  let db: DataSource;
  let workers: ChildProcess[] = [];

  beforeAll(async () => {
    assertBuilt();
    databaseUrl = await createMigratedDatabase(DATABASE);
    t = await createTestApp({
      DATABASE_URL: databaseUrl,
      QUEUE_PREFIX,
      RATE_LIMIT_PER_MINUTE: '100000',
      LINK_MUTATIONS_PER_MINUTE: '100000',
    });
    db = t.app.get(DataSource);
  }, 120_000);

  afterEach(async () => {
    await Promise.all(workers.map((worker) => stop(worker)));
    workers = [];
  });

  afterAll(async () => {
    await t?.close();
    await dropDatabase(DATABASE);
  });

  async function stop(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /**
   * A worker process on this spec's database and queues. A statement waiting for a lock waits as
   * long as the test holds it (no lock or statement timeout cuts a publish short while it waits).
   */
  async function startCrashWorker(): Promise<Worker> {
    const child = startWorker(
      await freePort(),
      {
        DATABASE_URL: databaseUrl,
        QUEUE_PREFIX,
        JOB_LEASE_MS: String(LEASE_MS),
        JOB_REAPER_INTERVAL_MS: String(SWEEP_MS),
        DATABASE_LOCK_TIMEOUT_MS: '300000',
        DATABASE_STATEMENT_TIMEOUT_MS: '300000',
        LOG_LEVEL: 'warn',
      },
      { output: 'pipe' },
    );
    workers.push(child);
    const logs: Record<string, unknown>[] = [];
    let partial = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        try {
          logs.push(JSON.parse(line) as Record<string, unknown>);
          if (process.env.WORKER_DEBUG) process.stderr.write(`${line}\n`);
        } catch {
          // not a log line
        }
      }
    });
    if (process.env.WORKER_DEBUG) child.stderr?.pipe(process.stderr);
    else child.stderr?.resume();
    return { owner: `${hostname()}:${child.pid}`, logs, kill: () => stop(child) };
  }

  const requeuedBy = (all: Worker[], jobId: string) =>
    all.flatMap((w) => w.logs).filter((line) => line.msg === REQUEUED && line.jobId === jobId);
  const figure = (text: string) => {
    if (process.env.CRASH_FIGURES) process.stdout.write(`${text}\n`);
  };

  it('a job recorded but never queued (the process died between commit and enqueue) is run by the reaper', async () => {
    const who = await t.createTenant();
    const auth = { Authorization: `Bearer ${who.key}` };
    const links = Array.from({ length: 10 }, (_, i) => ({
      firstName: `Q${i}`,
      company: 'Never queued',
      externalId: `never-${i}`,
    }));
    const linkJob = (
      (
        await request(t.server)
          .post('/api/v1/custom-links')
          .set(auth)
          .set('Idempotency-Key', 'never-queued')
          .send({ links })
          .expect(202)
      ).body as JobEnvelope
    ).job.id;
    const publishJob = await startPublish(who);
    // As if the request's process died after its commit: nothing in the queues.
    for (const [queue, id] of [
      [JOBS_QUEUE, linkJob],
      [AGENT_PUBLISH_QUEUE, publishJob],
    ] as const) {
      const bull = t.app.get<Queue>(getQueueToken(queue));
      await (await bull.getJob(id))?.remove();
      expect(await bull.getJob(id)).toBeNull();
    }

    const worker = await startCrashWorker();
    await eventually(
      async () =>
        (await linkJobStatus(who, linkJob)) === 'completed' && (await publishStatus(who, publishJob)) === 'succeeded',
      120_000,
      100,
    );
    expect(requeuedBy([worker], linkJob)).toContainEqual(
      expect.objectContaining({ kind: 'custom link job', queueState: 'absent' }),
    );
    expect(requeuedBy([worker], publishJob)).toContainEqual(
      expect.objectContaining({ kind: 'publish job', queueState: 'absent' }),
    );
    const [made]: { links: number; generated: number }[] = await db.query(
      `SELECT count(*)::int AS links, count(*) FILTER (WHERE thumbnail_status = 'generated')::int AS generated FROM custom_links WHERE organization_id = $1 AND job_id = $2`,
      [who.organizationId, linkJob],
    );
    expect(made).toEqual({ links: 10, generated: 10 });
  }, 180_000);

  it('a 500-link job with share cards, its worker killed three times: each link and each card made once, the job completed', async () => {
    const who = await t.createTenant();
    const auth = { Authorization: `Bearer ${who.key}` };
    const links = Array.from({ length: LINKS }, (_, i) => ({
      firstName: `P${i}`,
      company: 'Crash Co',
      externalId: `crash-${i}`,
    }));
    const jobId = (
      (
        await request(t.server)
          .post('/api/v1/custom-links')
          .set(auth)
          .set('Idempotency-Key', 'crash-repeated')
          .send({ links })
          .expect(202)
      ).body as JobEnvelope
    ).job.id;
    const progress = async () =>
      (
        (await db.query(
          `SELECT j.status, j.lease_owner AS owner,
                (SELECT count(*)::int FROM custom_link_job_items WHERE organization_id = $1 AND job_id = $2 AND status = 'created') AS created,
                (SELECT count(*)::int FROM thumbnail_renders WHERE organization_id = $1 AND job_id = $2 AND status NOT IN ('queued', 'processing')) AS rendered,
                (SELECT array_agg(DISTINCT lease_owner) FROM thumbnail_renders WHERE organization_id = $1 AND job_id = $2 AND lease_owner IS NOT NULL) AS render_owners
           FROM custom_link_jobs j WHERE j.organization_id = $1 AND j.id = $2`,
          [who.organizationId, jobId],
        )) as {
          status: string;
          owner: string | null;
          created: number;
          rendered: number;
          render_owners: string[] | null;
        }[]
      )[0];

    // Killed twice while it creates links (Bull gives the job up after the second), once more with the links nearly done.
    const killed: Worker[] = [];
    let at = await progress();
    for (const createdAtLeast of [100, 250, 400]) {
      const worker = await startCrashWorker();
      const before = await progress();
      await readUntil(
        progress,
        (now) =>
          now.owner === worker.owner &&
          now.created >= createdAtLeast &&
          now.created > before.created &&
          (now.render_owners ?? []).includes(worker.owner),
        120_000,
      );
      await worker.kill();
      killed.push(worker);
      at = await progress();
      expect(at.status).toBe('processing');
      if (killed.length < 3) expect(at.created).toBeLessThan(LINKS);
      figure(`kill ${killed.length}: ${at.created} links created, ${at.rendered} cards settled`);
    }
    const lastKill = Date.now();

    const last = await startCrashWorker();
    const killedAt = at;
    await readUntil(
      progress,
      (now) => now.created > killedAt.created || now.rendered > killedAt.rendered || now.status !== 'processing',
      120_000,
    );
    figure(
      `work resumed ${((Date.now() - lastKill) / 1000).toFixed(1)} s after the third kill (a worker start included)`,
    );
    const done = await readUntil(progress, (now) => now.status !== 'processing', 240_000);
    figure(`job completed ${((Date.now() - lastKill) / 1000).toFixed(1)} s after the third kill`);
    expect(done.status).toBe('completed');
    // Bull failed the job as stalled after its second death; the reaper put it back.
    expect(requeuedBy([...killed, last], jobId)).toContainEqual(
      expect.objectContaining({ kind: 'custom link job', queueState: 'failed' }),
    );

    const [counts]: Record<string, number>[] = await db.query(
      `SELECT (SELECT count(*)::int FROM custom_links WHERE organization_id = $1 AND job_id = $2) AS links,
              (SELECT count(DISTINCT slug)::int FROM custom_links WHERE organization_id = $1 AND job_id = $2) AS slugs,
              (SELECT count(DISTINCT external_id)::int FROM custom_links WHERE organization_id = $1 AND job_id = $2) AS external_ids,
              (SELECT count(*)::int FROM custom_link_job_items i JOIN custom_links l ON l.organization_id = i.organization_id AND l.id = i.custom_link_id
                WHERE i.organization_id = $1 AND i.job_id = $2 AND i.status = 'created') AS items_with_their_link,
              (SELECT count(*)::int FROM thumbnail_renders WHERE organization_id = $1 AND job_id = $2) AS renders,
              (SELECT count(*)::int FROM thumbnail_renders WHERE organization_id = $1 AND job_id = $2 AND status = 'generated') AS renders_generated,
              (SELECT count(*)::int FROM custom_links WHERE organization_id = $1 AND job_id = $2 AND thumbnail_status = 'generated' AND thumbnail_attempts = 1) AS cards_recorded_once,
              (SELECT count(*)::int FROM thumbnail_images m JOIN custom_links l ON l.organization_id = m.organization_id AND l.id = m.custom_link_id
                WHERE l.organization_id = $1 AND l.job_id = $2) AS stored_cards`,
      [who.organizationId, jobId],
    );
    expect(counts).toEqual({
      links: LINKS,
      slugs: LINKS,
      external_ids: LINKS,
      items_with_their_link: LINKS,
      renders: LINKS,
      renders_generated: LINKS,
      cards_recorded_once: LINKS,
      stored_cards: LINKS,
    });
  }, 600_000);

  it('a publish whose worker is killed three times switches production once and succeeds', async () => {
    const who = await t.createTenant();
    // The organization's committed production version, as a list: [] before the switch. The only
    // switch a rerun could repeat is to the same version (the job's success and the switch commit
    // together), so the row tells what a trigger counting switches would (and runs on Citus, where
    // a trigger on a shard cannot write a table of the spec's).
    const switches = async () =>
      (
        (await db.query(`SELECT production_version FROM agents WHERE organization_id = $1`, [who.organizationId])) as {
          production_version: number | null;
        }[]
      ).flatMap((row) => (row.production_version === null ? [] : [row.production_version]));
    const jobId = await startPublish(who);
    const owner = async () =>
      (
        (await db.query(`SELECT lease_owner FROM publish_jobs WHERE organization_id = $1 AND id = $2`, [
          who.organizationId,
          jobId,
        ])) as { lease_owner: string | null }[]
      )[0].lease_owner;

    // The test holds the organization's agent row, as a concurrent apply would: each worker's run
    // waits inside its transaction (the job taken, production not switched yet) and is killed there.
    const holder = new Client({ connectionString: databaseUrl });
    await holder.connect();
    const killed: Worker[] = [];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM agents WHERE organization_id = $1 FOR UPDATE', [who.organizationId]);
      for (let kill = 1; kill <= 3; kill++) {
        const worker = await startCrashWorker();
        await eventually(async () => (await owner()) === worker.owner, 120_000, 50);
        await worker.kill();
        killed.push(worker);
        expect(await switches()).toEqual([]);
        expect(await publishStatus(who, jobId)).not.toMatch(/^(succeeded|failed)$/);
      }
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const lastKill = Date.now();

    const last = await startCrashWorker();
    expect(
      await readUntil(
        () => publishStatus(who, jobId),
        (status) => status === 'succeeded' || status === 'failed',
        120_000,
      ),
    ).toBe('succeeded');
    figure(
      `publish recovered ${((Date.now() - lastKill) / 1000).toFixed(1)} s after the third kill (a worker start included)`,
    );
    expect(await switches()).toEqual([1]);
    expect(
      ((await request(t.server).get('/api/v1/agent').set('x-api-key', who.key).expect(200)).body as Agent)
        .productionVersion,
    ).toBe(1);
    expect(requeuedBy([...killed, last], jobId)).toContainEqual(
      expect.objectContaining({ kind: 'publish job', queueState: 'failed' }),
    );
  }, 600_000);

  async function startPublish(who: Tenant): Promise<string> {
    const auth = { 'x-api-key': who.key };
    await request(t.server)
      .put('/api/v1/playbook')
      .set(auth)
      .send({ sections: [{ key: 'intro', title: 'Intro', content: 'We help revenue teams.' }] })
      .expect(200);
    await request(t.server)
      .put('/api/v1/agent/conversation-tests')
      .set(auth)
      .send({ tests: [{ name: 'says what we do', mustContain: ['revenue'] }] })
      .expect(200);
    return (
      (
        await request(t.server)
          .post('/api/v1/agent/publish-jobs')
          .set(auth)
          .send({ version: 1, confirm: 'publish-to-production' })
          .expect(202)
      ).body as PublishJob
    ).jobId;
  }

  async function publishStatus(who: Tenant, jobId: string): Promise<string> {
    return (
      (await request(t.server).get(`/api/v1/agent/publish-jobs/${jobId}`).set('x-api-key', who.key).expect(200))
        .body as PublishJob
    ).status;
  }

  async function linkJobStatus(who: Tenant, jobId: string): Promise<string> {
    return (
      (await request(t.server).get(`/api/v1/custom-link-jobs/${jobId}`).set('x-api-key', who.key).expect(200))
        .body as Job
    ).status;
  }
});
