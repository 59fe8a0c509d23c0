import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { Row } from '../../common/database/rows';
import type { LeaseTerms } from '../../common/queue/job-leases';
import { reclaimLapsedRows, type LapsedJob } from '../../common/queue/job-reaper';

export type PublishJobRow = Row<'publish_jobs'>;

type Db = EntityManager | DataSource;

/** The only place that queries publish jobs; scoped by organization. */
@Injectable()
export class AgentRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insertPublishJob(
    organizationId: string,
    id: string,
    version: number,
    tx: Db = this.db,
  ): Promise<PublishJobRow> {
    const rows: PublishJobRow[] = await tx.query(
      `INSERT INTO publish_jobs (organization_id, id, status, requested_version) VALUES ($1, $2, 'queued', $3) RETURNING *`,
      [organizationId, id, version],
    );
    return rows[0];
  }

  async publishJob(organizationId: string, id: string, tx: Db = this.db): Promise<PublishJobRow | null> {
    const rows: PublishJobRow[] = await tx.query(`SELECT * FROM publish_jobs WHERE organization_id = $1 AND id = $2`, [
      organizationId,
      id,
    ]);
    return rows[0] ?? null;
  }

  /** Leases an unfinished publish job to the worker that runs it, or pushes its lease forward; false once it finished. */
  async leasePublishJob(organizationId: string, id: string, lease: LeaseTerms): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.db.query(
      `UPDATE publish_jobs SET lease_owner = $3, lease_until = now() + $4 * interval '1 millisecond'
        WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'running')`,
      [organizationId, id, lease.owner, lease.leaseMs],
    );
    return count > 0;
  }

  /** Unfinished publish jobs that nobody runs (ReapableJobs.reclaimLapsed), across organizations (publish_jobs_unfinished_idx). */
  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return reclaimLapsedRows(this.db, 'publish_jobs', ['queued', 'running'], lease, limit);
  }

  async markPublishJob(
    tx: Db,
    organizationId: string,
    id: string,
    status: 'running' | 'succeeded' | 'failed',
    error: { code: string; message: string } | null = null,
  ): Promise<void> {
    // Bound, and chosen here: Citus refuses now() inside CASE (docs/scaling.md, "Citus compatibility (statements)").
    const at = new Date();
    await tx.query(
      `UPDATE publish_jobs SET status = $3, error_code = $4, error_message = $5, updated_at = $6, completed_at = $7
        WHERE organization_id = $1 AND id = $2`,
      [organizationId, id, status, error?.code ?? null, error?.message ?? null, at, status === 'running' ? null : at],
    );
  }
}
