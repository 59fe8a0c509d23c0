import type { ChildProcess } from 'node:child_process';
import request from 'supertest';
import { DataSource } from 'typeorm';
import type { Job, JobEnvelope } from './support/api-types';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { createTestApp, eventually, type TestApp } from './support/test-app';
import { assertBuilt, startWorker } from './support/worker-process';

/**
 * docs/api.md §12.8: "A worker killed mid-job loses nothing and duplicates nothing." A real worker
 * process (the built image's entry point, APP_ROLE=worker) is killed with SIGKILL in the middle of a
 * 500-link job; a second worker picks the stalled job up and every item yields exactly one link.
 * Short queue locks let the stalled job be noticed in seconds instead of the default 30 s. On a
 * database and queues of its own, so that the workers killed and started are the only ones that
 * can take the job.
 */
const LINKS = 500;

describe('a worker killed mid-job', () => {
  let t: TestApp;
  let db: DataSource;
  const workers: ChildProcess[] = [];
  let isolated: IsolatedServices;

  beforeAll(async () => {
    assertBuilt();
    isolated = await isolatedServices('worker_crash');
    t = await createTestApp({ ...isolated.env, RATE_LIMIT_PER_MINUTE: '100000', LINK_MUTATIONS_PER_MINUTE: '100000' });
    db = t.app.get(DataSource);
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await t?.close();
    await isolated?.drop();
  });

  it('loses nothing and duplicates nothing: every item yields exactly one link', async () => {
    const { key, organizationId } = await t.createTenant();
    const auth = { Authorization: `Bearer ${key}` };
    const links = Array.from({ length: LINKS }, (_, i) => ({
      firstName: `P${i}`,
      externalId: `crash-${i}`,
      shareThumbnailUrl: `https://cdn.example.com/${i}.png`,
    }));
    const created = await request(t.server)
      .post('/api/v1/custom-links')
      .set(auth)
      .set('Idempotency-Key', 'crash-job')
      .send({ links })
      .expect(202);
    const jobId = (created.body as JobEnvelope).job.id;
    const job = async () =>
      (await request(t.server).get(`/api/v1/custom-link-jobs/${jobId}`).set(auth).expect(200)).body as Job;

    const first = startWorker(39_000 + Math.floor(Math.random() * 1000), isolated.env);
    workers.push(first);
    await eventually(async () => (await job()).createdCount >= 25, 30_000, 20);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const atKill = await job();
    expect(atKill.status).toBe('processing');
    expect(atKill.createdCount).toBeLessThan(LINKS);

    const port = 40_000 + Math.floor(Math.random() * 1000);
    workers.push(startWorker(port, isolated.env));
    await eventually(async () => (await job()).status === 'completed', 60_000, 100);
    // Worker pods serve probes only: no API route is mounted there, guarded or not.
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/custom-link-campaigns`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/sessions`)).status).toBe(404);

    const final = await job();
    expect(final.createdCount).toBe(LINKS);
    const [counts]: { links: string; distinct_external: string; items_created: string }[] = await db.query(
      `SELECT (SELECT count(*) FROM custom_links WHERE organization_id = $1 AND job_id = $2) AS links,
              (SELECT count(DISTINCT external_id) FROM custom_links WHERE organization_id = $1 AND job_id = $2) AS distinct_external,
              (SELECT count(*) FROM custom_link_job_items i JOIN custom_links l ON l.organization_id = i.organization_id AND l.id = i.custom_link_id
                WHERE i.organization_id = $1 AND i.job_id = $2 AND i.status = 'created') AS items_created`,
      [organizationId, jobId],
    );
    expect(counts).toEqual({ links: String(LINKS), distinct_external: String(LINKS), items_created: String(LINKS) });
  }, 120_000);
});
