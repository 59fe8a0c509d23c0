import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import request from 'supertest';
import type { Agent, PublishJob } from './support/api-types';
import { WAITING_FOR_ME } from './support/backends';
import { isolatedServices, type IsolatedServices } from './support/isolated-database';
import { createTestApp, eventually, type TestApp } from './support/test-app';
import { assertBuilt, startWorker } from './support/worker-process';

/**
 * Issue 6: a worker killed while a publish job runs leaves production untouched (the switch and the
 * job's success commit together), and the job completes after another worker picks it up. The
 * test holds the organization's agent row locked, as a concurrent apply would, so the first worker
 * waits mid-run (job marked running, its transaction open) and is killed there. On a database and
 * queues of its own, so that the workers killed and started are the only ones that can take the job.
 */
describe('a worker killed while publishing', () => {
  let t: TestApp;
  const workers: ChildProcess[] = [];
  let isolated: IsolatedServices;

  beforeAll(async () => {
    assertBuilt();
    isolated = await isolatedServices('publish_crash');
    t = await createTestApp({ ...isolated.env, RATE_LIMIT_PER_MINUTE: '100000' });
  }, 120_000);

  afterAll(async () => {
    for (const worker of workers) worker.kill('SIGKILL');
    await t?.close();
    await isolated?.drop();
  });

  it('leaves production unchanged, then the job succeeds on another worker', async () => {
    const { key, organizationId } = await t.createTenant();
    const auth = { Authorization: `Bearer ${key}` };
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
    const job = (
      await request(t.server)
        .post('/api/v1/agent/publish-jobs')
        .set(auth)
        .send({ version: 1, confirm: 'publish-to-production' })
        .expect(202)
    ).body as PublishJob;
    const poll = async () =>
      (await request(t.server).get(`/api/v1/agent/publish-jobs/${job.jobId}`).set(auth).expect(200)).body as PublishJob;
    const production = async () =>
      ((await request(t.server).get('/api/v1/agent').set(auth).expect(200)).body as Agent).productionVersion;

    const holder = new Client({ connectionString: isolated.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM agents WHERE organization_id = $1 FOR UPDATE', [organizationId]);
      const slow = startWorker(41_000 + Math.floor(Math.random() * 1000), isolated.env);
      workers.push(slow);
      await eventually(async () => (await poll()).status === 'running', 30_000, 50);
      // The worker's transaction is waiting for the row: it has not switched production.
      await eventually(async () => ((await holder.query(WAITING_FOR_ME)).rowCount ?? 0) > 0, 30_000, 50);
      slow.kill('SIGKILL');
      await new Promise((resolve) => slow.once('exit', resolve));
      expect(await production()).toBeNull();
      expect((await poll()).status).toBe('running');
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }

    workers.push(startWorker(42_000 + Math.floor(Math.random() * 1000), isolated.env));
    await eventually(async () => (await poll()).status === 'succeeded', 60_000, 100);
    expect(await production()).toBe(1);
    expect((await poll()).productionLink).toBe(`${t.config.agentBaseUrl}/live/${organizationId}`);
  }, 120_000);
});
