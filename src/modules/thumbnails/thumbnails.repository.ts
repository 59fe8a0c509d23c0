import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { LeaseTerms } from '../../common/queue/job-leases';
import { reclaimLapsedRows, type LapsedJob } from '../../common/queue/job-reaper';
import { COMMIT_WITHOUT_FLUSH } from '../../common/database/commit-without-flush';
import { preparedQuery } from '../../common/database/prepared-query';
import type { Row } from '../../common/database/rows';

export type RenderRow = Pick<Row<'thumbnail_renders'>, 'id' | 'custom_link_id' | 'job_id' | 'status'>;

/**
 * thumbnail_renders and thumbnail_images, every statement scoped by organization. The
 * statements every render runs outside a transaction are prepared once per connection (preparedQuery).
 * A render's claim and its outcome commit without waiting for the WAL flush (COMMIT_WITHOUT_FLUSH):
 * a render whose writes a PostgreSQL crash forgot is found unfinished once its lease lapses and drawn
 * again, to the same card (drawing is deterministic: same bytes, same hash, same URL).
 */
@Injectable()
export class ThumbnailsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(
    tx: EntityManager,
    organizationId: string,
    renderId: string,
    linkId: string,
    jobId: string,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO thumbnail_renders (organization_id, id, custom_link_id, job_id, status) VALUES ($1, $2, $3, $4, 'queued')`,
      [organizationId, renderId, linkId, jobId],
    );
  }

  /** Whether a render of the job is still queued or being drawn (thumbnail_renders_job_idx). */
  async unfinishedForJob(organizationId: string, jobId: string): Promise<boolean> {
    const [row] = await preparedQuery<{ unfinished: boolean }>(
      this.db,
      `SELECT EXISTS (SELECT 1 FROM thumbnail_renders WHERE organization_id = $1 AND job_id = $2 AND status IN ('queued', 'processing')) AS unfinished`,
      [organizationId, jobId],
    );
    return row.unfinished;
  }

  /** The renders each job asked for and how many settled (thumbnail_renders_job_idx). */
  async progressOfJobs(
    organizationId: string,
    jobIds: string[],
    tx: EntityManager | DataSource = this.db,
  ): Promise<Map<string, { queued: number; settled: number }>> {
    if (jobIds.length === 0) return new Map();
    const rows: (Pick<Row<'thumbnail_renders'>, 'job_id'> & { queued: number; settled: number })[] = await tx.query(
      `SELECT job_id, count(*)::int AS queued, count(*) FILTER (WHERE status NOT IN ('queued', 'processing'))::int AS settled
         FROM thumbnail_renders WHERE organization_id = $1 AND job_id = ANY($2::uuid[]) GROUP BY job_id`,
      [organizationId, jobIds],
    );
    return new Map(rows.map((row) => [row.job_id, { queued: row.queued, settled: row.settled }]));
  }

  /** Among these jobs, of any organizations, those with a render queued or being drawn (thumbnail_renders_job_idx). */
  async jobsDrawing(jobs: { organizationId: string; id: string }[]): Promise<Set<string>> {
    if (jobs.length === 0) return new Set();
    const rows: Pick<Row<'thumbnail_renders'>, 'job_id'>[] = await this.db.query(
      `SELECT j.job_id FROM unnest($1::uuid[], $2::uuid[]) AS j(organization_id, job_id)
        WHERE EXISTS (SELECT 1 FROM thumbnail_renders r WHERE r.organization_id = j.organization_id AND r.job_id = j.job_id
                         AND r.status IN ('queued', 'processing'))`,
      [jobs.map((job) => job.organizationId), jobs.map((job) => job.id)],
    );
    return new Set(rows.map((row) => row.job_id));
  }

  async queuedForJob(organizationId: string, jobId: string): Promise<string[]> {
    const rows: Pick<RenderRow, 'id'>[] = await this.db.query(
      `SELECT id FROM thumbnail_renders WHERE organization_id = $1 AND job_id = $2 AND status = 'queued'`,
      [organizationId, jobId],
    );
    return rows.map((row) => row.id);
  }

  /** Cancels a job's renders that have not started; returns how many (their units are refunded). */
  async cancelQueuedForJob(tx: EntityManager, organizationId: string, jobId: string): Promise<string[]> {
    const [rows]: [Pick<RenderRow, 'custom_link_id'>[], number] = await tx.query(
      `UPDATE thumbnail_renders SET status = 'cancelled', updated_at = now()
        WHERE organization_id = $1 AND job_id = $2 AND status = 'queued' RETURNING custom_link_id`,
      [organizationId, jobId],
    );
    return rows.map((row) => row.custom_link_id);
  }

  /** queued → processing, leased to the worker that draws it; null when the render was superseded, cancelled or already done. */
  async claim(organizationId: string, renderId: string, lease: LeaseTerms): Promise<RenderRow | null> {
    const rows = await preparedQuery<RenderRow>(
      this.db,
      `WITH claimed AS (
         UPDATE thumbnail_renders SET status = 'processing', updated_at = now(), lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
          WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing') RETURNING id, custom_link_id, job_id, status)
       SELECT claimed.* FROM claimed ${COMMIT_WITHOUT_FLUSH}`,
      [organizationId, renderId, lease.owner, lease.leaseMs],
    );
    return rows[0] ?? null;
  }

  /** Pushes the lease of a render being drawn forward; false once it is finished or cancelled. */
  async renewLease(organizationId: string, renderId: string, lease: LeaseTerms): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.db.query(
      `UPDATE thumbnail_renders SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
        WHERE organization_id = $1 AND id = $2 AND status = 'processing'`,
      [organizationId, renderId, lease.owner, lease.leaseMs],
    );
    return count > 0;
  }

  /** Unfinished renders that nobody draws (ReapableJobs.reclaimLapsed), across organizations (thumbnail_renders_unfinished_idx). */
  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return reclaimLapsedRows(this.db, 'thumbnail_renders', ['queued', 'processing'], lease, limit);
  }

  /** processing → final, committing without the flush wait; false when the render was superseded meanwhile (its result is dropped). */
  async finish(
    tx: EntityManager,
    organizationId: string,
    renderId: string,
    status: 'generated' | 'fallback' | 'failed',
  ): Promise<boolean> {
    const finished: unknown[] = await tx.query(
      `WITH finished AS (
         UPDATE thumbnail_renders SET status = $3, updated_at = now()
          WHERE organization_id = $1 AND id = $2 AND status = 'processing' RETURNING id)
       SELECT finished.id FROM finished ${COMMIT_WITHOUT_FLUSH}`,
      [organizationId, renderId, status],
    );
    return finished.length > 0;
  }

  async storeImage(
    organizationId: string,
    linkId: string,
    hash: string,
    png: Buffer,
    tx: EntityManager | DataSource = this.db,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO thumbnail_images (custom_link_id, hash, organization_id, png) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [linkId, hash, organizationId, png],
    );
  }

  /** The link's stored cards except `keep` (thumbnail_images primary key). */
  async deleteImages(
    organizationId: string,
    linkId: string,
    keep: string | null,
    tx: EntityManager | DataSource = this.db,
  ): Promise<void> {
    await tx.query(
      `DELETE FROM thumbnail_images WHERE organization_id = $1 AND custom_link_id = $2 AND hash IS DISTINCT FROM $3`,
      [organizationId, linkId, keep],
    );
  }

  /** Cancels the link's renders that have not finished; returns the jobs they belong to. */
  async cancelUnfinishedForLink(tx: EntityManager, organizationId: string, linkId: string): Promise<string[]> {
    const [rows]: [Pick<RenderRow, 'job_id'>[], number] = await tx.query(
      `UPDATE thumbnail_renders SET status = 'cancelled', updated_at = now()
        WHERE organization_id = $1 AND custom_link_id = $2 AND status IN ('queued', 'processing') RETURNING job_id`,
      [organizationId, linkId],
    );
    return rows.map((row) => row.job_id);
  }

  async jobOf(organizationId: string, renderId: string): Promise<string | null> {
    const rows: Pick<RenderRow, 'job_id'>[] = await this.db.query(
      `SELECT job_id FROM thumbnail_renders WHERE organization_id = $1 AND id = $2`,
      [organizationId, renderId],
    );
    return rows[0]?.job_id ?? null;
  }

  /** The public read, by the URL's link id and content hash once the link's organization is known (primary key). */
  async findImage(organizationId: string, linkId: string, hash: string): Promise<{ png: Buffer } | null> {
    const rows: Pick<Row<'thumbnail_images'>, 'png'>[] = await this.db.query(
      `SELECT png FROM thumbnail_images WHERE organization_id = $1 AND custom_link_id = $2 AND hash = $3`,
      [organizationId, linkId, hash],
    );
    return rows[0] ? { png: rows[0].png } : null;
  }
}
