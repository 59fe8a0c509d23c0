import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { IdempotencyRepository } from '../src/common/idempotency/idempotency.repository';
import { MaintenanceProcessor } from '../src/modules/maintenance/jobs/maintenance.processor';
import {
  MAINTENANCE_QUEUE,
  PURGE_IDEMPOTENCY_RECORDS,
  PURGE_IDEMPOTENCY_RECORDS_CRON,
} from '../src/modules/maintenance/jobs/maintenance.queue';
import { createTestApp, eventually, type TestApp } from './support/test-app';

describe('worker role: maintenance', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLE: 'all' });
  });
  afterAll(() => t.close());

  it('registers the hourly purge as one repeatable job', async () => {
    const queue = t.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    await eventually(async () => (await queue.getRepeatableJobs()).some((j) => j.name === PURGE_IDEMPOTENCY_RECORDS));
    const jobs = (await queue.getRepeatableJobs()).filter((j) => j.name === PURGE_IDEMPOTENCY_RECORDS);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].cron).toBe(PURGE_IDEMPOTENCY_RECORDS_CRON);
  });

  it('purges expired idempotency records and keeps live ones', async () => {
    const { organizationId } = await t.createTenant();
    const db = t.app.get(DataSource);
    const repository = t.app.get(IdempotencyRepository);
    const scope = { organizationId, method: 'POST', route: '/api/v1/custom-link-campaigns' };
    expect(await repository.claim({ ...scope, key: 'live' }, 'a'.repeat(64), randomUUID(), 30_000)).toBe(true);
    expect(await repository.claim({ ...scope, key: 'old' }, 'b'.repeat(64), randomUUID(), 30_000)).toBe(true);
    await db.query(
      `UPDATE idempotency_records SET expires_at = now() - interval '1 second' WHERE organization_id = $1 AND idempotency_key = 'old'`,
      [organizationId],
    );

    await t.app.get(MaintenanceProcessor).purgeIdempotencyRecords();

    const rows: { idempotency_key: string }[] = await db.query(
      `SELECT idempotency_key FROM idempotency_records WHERE organization_id = $1`,
      [organizationId],
    );
    expect(rows.map((r) => r.idempotency_key)).toEqual(['live']);
  });

  it('does not run processors in the api role', async () => {
    const api = await createTestApp();
    try {
      expect(() => api.app.get(MaintenanceProcessor)).toThrow();
    } finally {
      await api.close();
    }
  });
});
