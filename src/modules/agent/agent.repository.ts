import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

export interface PublishJobRow {
  id: string;
  status: string;
  requested_version: number;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

type Db = EntityManager | DataSource;

/** The only place that queries publish jobs; scoped by organization. */
@Injectable()
export class AgentRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insertPublishJob(organizationId: string, id: string, version: number, tx: Db = this.db): Promise<PublishJobRow> {
    const rows: PublishJobRow[] = await tx.query(
      `INSERT INTO publish_jobs (organization_id, id, status, requested_version) VALUES ($1, $2, 'queued', $3) RETURNING *`,
      [organizationId, id, version],
    );
    return rows[0];
  }

  async publishJob(organizationId: string, id: string, tx: Db = this.db): Promise<PublishJobRow | null> {
    const rows: PublishJobRow[] = await tx.query(`SELECT * FROM publish_jobs WHERE organization_id = $1 AND id = $2`, [organizationId, id]);
    return rows[0] ?? null;
  }

  async markPublishJob(tx: Db, organizationId: string, id: string, status: 'running' | 'succeeded' | 'failed', error: { code: string; message: string } | null = null): Promise<void> {
    await tx.query(
      `UPDATE publish_jobs SET status = $3::text, error_code = $4, error_message = $5, updated_at = now(),
              completed_at = CASE WHEN $3::text IN ('succeeded', 'failed') THEN now() END
        WHERE organization_id = $1 AND id = $2`,
      [organizationId, id, status, error?.code ?? null, error?.message ?? null],
    );
  }
}
