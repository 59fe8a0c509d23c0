import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfigService } from '../../src/config/app-config';
import { EventFold } from '../../src/modules/engagement/event-fold.service';
import { replayedEverywhere } from './replica';
import { eventually } from './test-app';

async function waitingBatches(db: DataSource, organizationId?: string): Promise<number> {
  const [row]: { waiting: number }[] = await db.query(
    `SELECT count(*)::int AS waiting FROM link_event_batches WHERE $1::uuid IS NULL OR organization_id = $1`,
    [organizationId ?? null],
  );
  return row.waiting;
}

/**
 * Waits until the event log is folded (docs/api.md §6.4): no appended batch of the organization (of
 * any, without one) waits. The app's own folders run in its worker role; otherwise another process's.
 * With read replicas, also until they have replayed the fold: the API reads them.
 */
export async function folded(app: INestApplication, organizationId?: string, timeoutMs = 15_000): Promise<void> {
  const db = app.get(DataSource);
  await eventually(async () => (await waitingBatches(db, organizationId)) === 0, timeoutMs);
  await replayedEverywhere(db, app.get(AppConfigService).values.replicas.urls, timeoutMs);
}

/**
 * Folds the organization's waiting batches in this process, as a worker's folder does (for an app
 * whose role runs no workers); while another process's folder holds the organization, waits for it.
 * Returns at once when none waits.
 */
export async function foldNow(app: INestApplication, organizationId: string, timeoutMs = 15_000): Promise<void> {
  const db = app.get(DataSource);
  const fold = app.get(EventFold);
  const deadline = Date.now() + timeoutMs;
  while ((await waitingBatches(db, organizationId)) > 0) {
    if (Date.now() > deadline) throw new Error(`Batches of ${organizationId} still wait after ${timeoutMs} ms`);
    if ((await fold.foldOnce(organizationId)).busy) await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
