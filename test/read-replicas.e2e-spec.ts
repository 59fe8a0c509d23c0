import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../src/common/database/prepared-query';
import { readContexts, type ReadContext } from '../src/common/database/read-context';
import { metricsRegistry } from '../src/common/metrics/metrics-registry';
import type { Campaign, CampaignPage, SessionDetail } from './support/api-types';
import { REPLICA_DATABASE_URL } from './support/replica';
import { ingest, newSessionId, sessionBody } from './support/sessions';
import { TcpProxy } from './support/tcp-proxy';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';

/**
 * Issue 35 point 4, docs/scaling.md "Read replicas": authenticated GETs read a streaming replica of
 * the run's database; writes, transactions, requests that wrote and idempotent replays use the
 * primary; an organization that wrote reads the primary until the replica has replayed its write;
 * a replica too far behind or down serves nothing until it catches up or heals.
 *
 * Staleness is made on purpose: replay is paused on the replica (pg_wal_replay_pause) and a row is
 * changed on the primary behind the service's back, so what a read answers says where it ran.
 * Needs the replica of .ci/start-replica (TEST_REPLICA_URL); .ci/run always starts one.
 */
jest.setTimeout(120_000);

const CAMPAIGNS = '/api/v1/custom-link-campaigns';
// Without a replica the suite is reported as skipped (jest lists it), never passed: .ci/run always has one.
const describeWithReplica = REPLICA_DATABASE_URL ? describe : describe.skip;

/** How many reads each target served so far in this process (engagement_db_reads_total). */
async function readsServed(): Promise<{ replica: number; primary: number }> {
  const metric = await metricsRegistry.getSingleMetric('engagement_db_reads_total')!.get();
  const of = (target: string) => metric.values.find((v) => v.labels.target === target)?.value ?? 0;
  return { replica: of('replica'), primary: of('primary') };
}

describeWithReplica('read replicas', () => {
  let primary: Client;
  let replica: Client;
  let proxy: TcpProxy;
  /** Replicas serve while they are at most ten minutes behind: pausing replay leaves them serving. */
  let t: TestApp;

  beforeAll(async () => {
    primary = new Client({ connectionString: process.env.DATABASE_URL });
    replica = new Client({ connectionString: REPLICA_DATABASE_URL });
    await Promise.all([primary.connect(), replica.connect()]);
    const proxied = await TcpProxy.for(REPLICA_DATABASE_URL!);
    proxy = proxied.proxy;
    t = await createTestApp({ DATABASE_REPLICA_URLS: proxied.url, REPLICA_MAX_LAG_MS: '600000' });
  });
  afterAll(async () => {
    await resumeReplay();
    await t?.close();
    await proxy?.stop();
    await Promise.all([primary?.end(), replica?.end()]);
  });

  const pauseReplay = async () => {
    await replica.query(`SELECT pg_wal_replay_pause()`);
    await eventually(
      async () => (await replica.query(`SELECT pg_get_wal_replay_pause_state() AS s`)).rows[0].s === 'paused',
    );
  };
  async function resumeReplay(): Promise<void> {
    await replica?.query(`SELECT pg_wal_replay_resume()`);
  }

  const tenant = (app: TestApp) =>
    app.createTenant(['custom_links:read', 'custom_links:write', 'sessions:read', 'sessions:write']);
  const list = (app: TestApp, who: Tenant) => request(app.server).get(CAMPAIGNS).set('x-api-key', who.key).expect(200);
  /** The names listed, and where the request's reads ran. */
  const listNames = async (app: TestApp, who: Tenant) => {
    const before = await readsServed();
    const res = await list(app, who);
    const after = await readsServed();
    return {
      names: (res.body as CampaignPage).campaigns.map((c) => c.name),
      byReplica: after.replica > before.replica,
      byPrimary: after.primary > before.primary,
    };
  };
  const create = async (app: TestApp, who: Tenant, name: string) =>
    (await request(app.server).post(CAMPAIGNS).set('x-api-key', who.key).send({ name }).expect(201)).body as Campaign;
  /** Waits until the organization's list is served by the replica (it replayed the organization's writes). */
  const servedByReplica = async (app: TestApp, who: Tenant) => {
    await eventually(async () => (await listNames(app, who)).byReplica, 30_000);
  };
  /** Renames on the primary behind the service's back: no read-your-writes mark is recorded. */
  const renameBehindTheService = (id: string, name: string) =>
    primary.query(`UPDATE campaigns SET name = $2 WHERE id = $1`, [id, name]);

  it('serves a GET from the replica, stale while replay is paused; the writer reads its own writes from the primary', async () => {
    const reader = await tenant(t);
    const writer = await tenant(t);
    const original = await create(t, reader, 'Original');
    await servedByReplica(t, reader);

    await pauseReplay();
    try {
      await renameBehindTheService(original.id, 'Renamed');
      // The replica has not replayed the rename: the reader's list, read there, is stale.
      expect(await listNames(t, reader)).toMatchObject({ names: ['Original'], byReplica: true });

      // The writer's POST recorded its position: its GET right after reads the primary and sees it.
      const fresh = await create(t, writer, 'Just written');
      expect(await listNames(t, writer)).toEqual({ names: ['Just written'], byReplica: false, byPrimary: true });

      // An ingested session (an idempotent PUT) reads back at once, detail and list.
      const sessionId = newSessionId();
      const body = sessionBody({ email: 'ada@example.com' });
      await ingest(t.server, writer.key, sessionId, body).set('Idempotency-Key', 'replica-1').expect(200);
      const detail = await request(t.server)
        .get(`/api/v1/sessions/${sessionId}`)
        .set('x-api-key', writer.key)
        .expect(200);
      expect((detail.body as SessionDetail).id).toBe(sessionId);
      // Its replay is answered from the primary's record (the replica has none yet).
      const replayed = await ingest(t.server, writer.key, sessionId, body)
        .set('Idempotency-Key', 'replica-1')
        .expect(200);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(fresh.name).toBe('Just written');
    } finally {
      await resumeReplay();
    }

    // Replay resumed: the replica catches up and serves both organizations again, fresh.
    await eventually(async () => {
      const read = await listNames(t, reader);
      return read.byReplica && read.names[0] === 'Renamed';
    }, 30_000);
    await servedByReplica(t, writer);
  });

  it('runs writes, transactions and reads of a request that wrote on the primary, and reads of GETs on the replica', async () => {
    const db = t.app.get(DataSource);
    const who = await tenant(t);
    await create(t, who, 'Locked');
    await servedByReplica(t, who);
    const onStandby = async (run: () => Promise<{ standby: boolean }[]>) => (await run())[0].standby;
    const STANDBY = `SELECT pg_is_in_recovery() AS standby`;
    const get = (): ReadContext => ({
      request: { method: 'GET', principal: { organizationId: who.organizationId } },
      onPrimary: false,
    });

    await readContexts.run(get(), async () => {
      expect(await onStandby(() => db.query(STANDBY))).toBe(true);
      expect(await onStandby(() => preparedQuery(db, STANDBY, []))).toBe(true);
      expect(await onStandby(() => db.transaction((tx) => tx.query(STANDBY)))).toBe(false);
      // A statement that may write, or locks rows, goes to the primary.
      const locking = `${STANDBY} FROM campaigns WHERE organization_id = $1 FOR UPDATE`;
      expect(await onStandby(() => db.query(locking, [who.organizationId]))).toBe(false);
    });
    await readContexts.run(get(), async () => {
      await db.query(`UPDATE campaigns SET updated_at = updated_at WHERE organization_id = $1`, [who.organizationId]);
      // This request wrote: from now on it reads the primary.
      expect(await onStandby(() => db.query(STANDBY))).toBe(false);
    });
    const post = { ...get(), request: { ...get().request, method: 'POST' } };
    await readContexts.run(post, async () => expect(await onStandby(() => db.query(STANDBY))).toBe(false));
    // Outside a request (workers, sweeps): the primary.
    expect(await onStandby(() => db.query(STANDBY))).toBe(false);
    // A request without a principal (a public route, the key lookup): the primary.
    await readContexts.run({ request: { method: 'GET' }, onPrimary: false }, async () =>
      expect(await onStandby(() => db.query(STANDBY))).toBe(false),
    );
  });

  it('a replica down sends reads to the primary at once, and serves again once it heals', async () => {
    const who = await tenant(t);
    await create(t, who, 'Kept');
    await servedByReplica(t, who);

    proxy.set('refuse');
    try {
      // The read that finds the replica gone is run again on the primary: no error reaches the client.
      expect(await listNames(t, who)).toEqual({ names: ['Kept'], byReplica: false, byPrimary: true });
      expect(await listNames(t, who)).toEqual({ names: ['Kept'], byReplica: false, byPrimary: true });
    } finally {
      proxy.set('open');
    }
    await servedByReplica(t, who);
  });

  describe('with REPLICA_MAX_LAG_MS=300', () => {
    let strict: TestApp;
    beforeAll(async () => {
      strict = await createTestApp({ DATABASE_REPLICA_URLS: REPLICA_DATABASE_URL!, REPLICA_MAX_LAG_MS: '300' });
    });
    afterAll(() => strict?.close());

    it('a replica further behind serves nothing until it catches up', async () => {
      const who = await tenant(strict);
      const original = await create(strict, who, 'Before');
      await servedByReplica(strict, who);

      await pauseReplay();
      try {
        await renameBehindTheService(original.id, 'After');
        // Still paused: once its lag passes 300 ms, reads go to the primary and see the change.
        await eventually(async () => {
          const read = await listNames(strict, who);
          return read.byPrimary && !read.byReplica && read.names[0] === 'After';
        }, 10_000);
        expect((await replica.query(`SELECT name FROM campaigns WHERE id = $1`, [original.id])).rows[0].name).toBe(
          'Before',
        );
      } finally {
        await resumeReplay();
      }
      await eventually(async () => {
        const read = await listNames(strict, who);
        return read.byReplica && read.names[0] === 'After';
      }, 30_000);
    });
  });
});
