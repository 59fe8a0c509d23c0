import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { reclaimLapsedRows, type LapsedJob } from '../src/common/queue/job-reaper';
import type { LeaseTerms } from '../src/common/queue/job-leases';
import { dataSourceOptions } from '../src/database/data-source-options';
import { WebhooksRepository } from '../src/modules/webhooks/webhooks.repository';
import { isolatedServices } from './support/isolated-database';

const LEASE: LeaseTerms = { owner: 'sweep-test', leaseMs: 30_000 };
const SWEEPERS = 4;

const key = (row: LapsedJob) => `${row.organizationId}/${row.id}`;
const sorted = (rows: LapsedJob[]) => rows.map(key).sort();

/**
 * The lease sweeps as Citus runs them (docs/scaling.md, "Citus compatibility (statements)"):
 * candidates read across organizations, then claimed per organization with FOR UPDATE SKIP LOCKED.
 * On a database of the spec's own, so that no worker of another spec sweeps the same rows.
 */
describe('lease sweeps across organizations', () => {
  let drop: () => Promise<void>;
  let db: DataSource;
  let organizations: string[];

  beforeAll(async () => {
    const services = await isolatedServices('lease_sweeps');
    drop = services.drop;
    db = new DataSource(dataSourceOptions(services.env.DATABASE_URL, SWEEPERS + 2));
    await db.initialize();
    organizations = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of organizations) await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'sweeps')`, [id]);
  });

  afterAll(async () => {
    await db.destroy();
    await drop();
  });

  /** Exports of each organization: `lapsed` nobody runs (never leased, recorded an hour ago; or a lease that lapsed), the rest not. */
  async function exportsOf(organizationId: string): Promise<{ lapsed: LapsedJob[] }> {
    const lapsed: LapsedJob[] = [];
    for (const lease of ['never', 'lapsed', 'live', 'completed'] as const) {
      const id = randomUUID();
      await db.query(
        `INSERT INTO exports (organization_id, id, resource, format, status, lease_until, created_at)
         VALUES ($1, $2, 'sessions', 'csv', $3, $4::timestamptz, now() - interval '1 hour')`,
        [
          organizationId,
          id,
          lease === 'completed' ? 'completed' : 'processing',
          lease === 'lapsed'
            ? new Date(Date.now() - 60_000)
            : lease === 'live' || lease === 'completed'
              ? new Date(Date.now() + 3_600_000)
              : null,
        ],
      );
      if (lease === 'never' || lease === 'lapsed') lapsed.push({ organizationId, id });
    }
    return { lapsed };
  }

  const sweepExports = (limit = 100) => reclaimLapsedRows(db, 'exports', ['queued', 'processing'], LEASE, limit);

  it('sweepers running at once take every lapsed row of every organization once, with its organization, and nothing else', async () => {
    const lapsed = (await Promise.all(organizations.map(exportsOf))).flatMap((made) => made.lapsed);

    const taken = (await Promise.all(Array.from({ length: SWEEPERS }, () => sweepExports()))).flat();

    expect(sorted(taken)).toEqual(sorted(lapsed));
    // Their leases moved one term forward: the next sweep finds nothing.
    expect(await sweepExports()).toEqual([]);
    const [{ leased }]: { leased: number }[] = await db.query(
      `SELECT count(*)::int AS leased FROM exports WHERE id = ANY($1) AND lease_until > now() + interval '20 seconds'`,
      [lapsed.map((row) => row.id)],
    );
    expect(leased).toBe(lapsed.length);
  });

  it('takes at most the limit per sweep, and the rest on the next sweeps', async () => {
    const lapsed = (await Promise.all(organizations.map(exportsOf))).flatMap((made) => made.lapsed);

    const first = await sweepExports(4);
    const rest = [...(await sweepExports(4)), ...(await sweepExports(4))];

    expect(first).toHaveLength(4);
    expect(sorted([...first, ...rest])).toEqual(sorted(lapsed));
  });

  it('skips a lapsed row its work holds locked, without waiting for it', async () => {
    const { lapsed } = await exportsOf(organizations[0]);
    const [held, free] = lapsed;
    const work = db.createQueryRunner();
    await work.connect();
    await work.startTransaction();
    try {
      await work.query(`SELECT 1 FROM exports WHERE organization_id = $1 AND id = $2 FOR UPDATE`, [
        held.organizationId,
        held.id,
      ]);

      expect(sorted(await sweepExports())).toEqual(sorted([free]));
    } finally {
      await work.rollbackTransaction();
      await work.release();
    }
    expect(sorted(await sweepExports())).toEqual(sorted([held]));
  });

  it('claims due webhook deliveries of every organization once across sweepers running at once; one not due stays', async () => {
    const webhooks = new WebhooksRepository(db);
    const due: LapsedJob[] = [];
    for (const organizationId of organizations) {
      const endpointId = randomUUID();
      const messageId = randomUUID();
      await db.query(
        `INSERT INTO webhook_endpoints (organization_id, id, url, event_types, secret) VALUES ($1, $2, 'https://hooks.test/', '{link.opened}', 's')`,
        [organizationId, endpointId],
      );
      await db.query(
        `INSERT INTO webhook_messages (organization_id, id, event_type, body) VALUES ($1, $2, 'link.opened', '{}')`,
        [organizationId, messageId],
      );
      for (const [attempt, nextAttemptAt] of [
        [1, new Date(Date.now() - 1_000)],
        [2, new Date(Date.now() - 2_000)],
        [3, new Date(Date.now() + 3_600_000)],
      ] as const) {
        const id = randomUUID();
        await db.query(
          `INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status, next_attempt_at)
           VALUES ($1, $2, $3, $4, $5, 'pending', $6)`,
          [organizationId, id, endpointId, messageId, attempt, nextAttemptAt],
        );
        if (nextAttemptAt.getTime() < Date.now()) due.push({ organizationId, id });
      }
    }

    const taken = (await Promise.all(Array.from({ length: SWEEPERS }, () => webhooks.claimDue(LEASE, 100)))).flat();

    expect(sorted(taken)).toEqual(sorted(due));
    expect(await webhooks.claimDue(LEASE, 100)).toEqual([]);
  });
});
