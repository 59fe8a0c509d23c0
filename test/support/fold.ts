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

/** An ISO 8601 instant as the API writes it (UTC, milliseconds). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * `link` as another read returns it when nothing about it changed: its engagement's `asOf` is each
 * read's own instant (docs/api.md §6.4), so it is any instant there; every other field is the same.
 */
export function sameLink<T extends { engagement: { asOf: string } }>(link: T): T {
  return { ...link, engagement: { ...link.engagement, asOf: expect.stringMatching(ISO_INSTANT) as string } };
}
