import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { IdempotencyRepository } from '../src/common/idempotency/idempotency.repository';
import { MaintenanceProcessor } from '../src/modules/maintenance/jobs/maintenance.processor';
import {
  MAINTENANCE_QUEUE,
  PURGE_IDEMPOTENCY_RECORDS,
  PURGE_IDEMPOTENCY_RECORDS_CRON,
  RUN_RETENTION,
  RUN_RETENTION_CRON,
  SAMPLE_EMAIL_GRAMS,
  SAMPLE_EMAIL_GRAMS_EVERY_MS,
  SWEEP_LINK_ACCESS,
  SWEEP_LINK_ACCESS_EVERY_MS,
  SWEEP_WEBHOOK_MESSAGES,
  SWEEP_WEBHOOK_MESSAGES_CRON,
} from '../src/modules/maintenance/jobs/maintenance.queue';
import { isolatedServices } from './support/isolated-database';
import { ingest, sessionBody } from './support/sessions';
import { createTestApp, eventually, type Tenant, type TestApp } from './support/test-app';

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

  it('registers the link access sweep (custom_link.expired) every 30 s as one repeatable job', async () => {
    const queue = t.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    await eventually(async () => (await queue.getRepeatableJobs()).some((j) => j.name === SWEEP_LINK_ACCESS));
    const jobs = (await queue.getRepeatableJobs()).filter((j) => j.name === SWEEP_LINK_ACCESS);
    expect(jobs).toHaveLength(1);
    expect(Number(jobs[0].every)).toBe(SWEEP_LINK_ACCESS_EVERY_MS);
  });

  it('registers the email gram sampling every ten minutes as one repeatable job', async () => {
    const queue = t.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    await eventually(async () => (await queue.getRepeatableJobs()).some((j) => j.name === SAMPLE_EMAIL_GRAMS));
    const jobs = (await queue.getRepeatableJobs()).filter((j) => j.name === SAMPLE_EMAIL_GRAMS);
    expect(jobs).toHaveLength(1);
    expect(Number(jobs[0].every)).toBe(SAMPLE_EMAIL_GRAMS_EVERY_MS);
  });

  it('registers the hourly webhook message sweep as one repeatable job', async () => {
    const queue = t.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    await eventually(async () => (await queue.getRepeatableJobs()).some((j) => j.name === SWEEP_WEBHOOK_MESSAGES));
    const jobs = (await queue.getRepeatableJobs()).filter((j) => j.name === SWEEP_WEBHOOK_MESSAGES);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].cron).toBe(SWEEP_WEBHOOK_MESSAGES_CRON);
  });

  it('deletes webhook messages 30 days old with their deliveries, unless a delivery is still pending', async () => {
    const { organizationId } = await t.createTenant();
    const db = t.app.get(DataSource);
    const endpoint = randomUUID();
    await db.query(
      `INSERT INTO webhook_endpoints (organization_id, id, url, event_types, secret)
       VALUES ($1, $2, 'https://hooks.example.com/in', '{session.analyzed}', 'whsec_test')`,
      [organizationId, endpoint],
    );
    const message = async (name: string, ageDays: number, status: 'succeeded' | 'failed' | 'pending') => {
      const id = randomUUID();
      await db.query(
        `INSERT INTO webhook_messages (organization_id, id, event_type, body, created_at)
         VALUES ($1, $2, 'session.analyzed', $3, now() - $4 * interval '1 day')`,
        [organizationId, id, JSON.stringify({ name }), ageDays],
      );
      await db.query(
        `INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, message_id, attempt, status)
         VALUES ($1, $2, $3, $4, 1, $5)`,
        [organizationId, randomUUID(), endpoint, id, status],
      );
    };
    await message('young', 29, 'succeeded');
    await message('old', 31, 'succeeded');
    await message('old-failed', 31, 'failed');
    await message('old-pending', 31, 'pending');

    await t.app.get(MaintenanceProcessor).sweepWebhookMessages();

    const left: { body: string }[] = await db.query(
      `SELECT body FROM webhook_messages WHERE organization_id = $1 ORDER BY body`,
      [organizationId],
    );
    expect(left.map((row) => (JSON.parse(row.body) as { name: string }).name)).toEqual(['old-pending', 'young']);
    const deliveries: { count: string }[] = await db.query(
      `SELECT count(*) FROM webhook_deliveries WHERE organization_id = $1`,
      [organizationId],
    );
    expect(deliveries[0].count).toBe('2');
  });

  it('registers the daily retention run as one repeatable job', async () => {
    const queue = t.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    await eventually(async () => (await queue.getRepeatableJobs()).some((j) => j.name === RUN_RETENTION));
    const jobs = (await queue.getRepeatableJobs()).filter((j) => j.name === RUN_RETENTION);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].cron).toBe(RUN_RETENTION_CRON);
  });

  it('the retention run applies the setting of every organization that has one, and of no other', async () => {
    // A database of its own: the run reaches every organization, other specs' included.
    const isolated = await isolatedServices('retention');
    const own = await createTestApp({ APP_ROLE: 'all', ...isolated.env });
    try {
      await runRetentionOn(own);
    } finally {
      await own.close();
      await isolated.drop();
    }
  });

  /** Two organizations with a 40-day-old session: only the one whose setting has sessionDays 30 loses it. */
  async function runRetentionOn(app: TestApp): Promise<void> {
    const [kept, expiring] = await Promise.all([app.createTenant(), app.createTenant()]);
    const start = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const old = sessionBody({ startTime: start, endTime: start, qualificationAssessedAt: start });
    const ids = { kept: randomUUID(), expiring: randomUUID() };
    await ingest(app.server, kept.key, ids.kept, old).expect(200);
    await ingest(app.server, expiring.key, ids.expiring, old).expect(200);
    const setting = (key: string, body: object) =>
      request(app.server).put('/api/v1/settings/retention').set('x-api-key', key).send(body).expect(200);
    await setting(kept.key, { transcriptDays: null, sessionDays: null, eventDays: null });
    await setting(expiring.key, { transcriptDays: null, sessionDays: 30, eventDays: null });

    await app.app.get(MaintenanceProcessor).runRetention();

    const session = (tenant: Tenant, id: string) =>
      request(app.server).get(`/api/v1/sessions/${id}`).set('x-api-key', tenant.key);
    await session(kept, ids.kept).expect(200);
    await session(expiring, ids.expiring).expect(404);
  }

  it('does not run processors in the api role', async () => {
    const api = await createTestApp();
    try {
      expect(() => api.app.get(MaintenanceProcessor)).toThrow();
    } finally {
      await api.close();
    }
  });
});
