import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { eventually } from './test-app';

/**
 * Waits until the event log is folded (docs/api.md §6.4): no appended batch of the organization (of
 * any, without one) waits. The app's own folders run in its worker role; otherwise another process's.
 */
export async function folded(app: INestApplication, organizationId?: string, timeoutMs = 15_000): Promise<void> {
  const db = app.get(DataSource);
  await eventually(async () => {
    const [row]: { waiting: number }[] = await db.query(
      `SELECT count(*)::int AS waiting FROM link_event_batches WHERE $1::uuid IS NULL OR organization_id = $1`,
      [organizationId ?? null],
    );
    return row.waiting === 0;
  }, timeoutMs);
}
