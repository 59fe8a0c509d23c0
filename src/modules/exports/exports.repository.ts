import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Narrowed, Row } from '../../common/database/rows';
import type { LeaseTerms } from '../../common/queue/job-leases';
import { reclaimLapsedRows, type LapsedJob } from '../../common/queue/job-reaper';

/** An export as COLUMNS reads it; `filters` are the list's query parameters. */
export type ExportRow = Narrowed<
  Pick<
    Row<'exports'>,
    | 'id'
    | 'resource'
    | 'format'
    | 'filters'
    | 'status'
    | 'row_count'
    | 'run_id'
    | 'created_at'
    | 'completed_at'
    | 'expires_at'
  >,
  { filters: Record<string, string>; status: 'queued' | 'processing' | 'completed' | 'failed' }
>;

type Chunk = Pick<Row<'export_chunks'>, 'seq' | 'data'>;

const COLUMNS = `id, resource, format, filters, status, row_count, run_id, created_at, completed_at, expires_at`;

/** The only place that queries exports and their chunks; every statement is scoped by organization (the sweeps span them). */
@Injectable()
export class ExportsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(
    organizationId: string,
    id: string,
    resource: string,
    format: string,
    filters: Record<string, string>,
  ): Promise<ExportRow> {
    const [row]: ExportRow[] = await this.db.query(
      `INSERT INTO exports (organization_id, id, resource, format, filters) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [organizationId, id, resource, format, filters],
    );
    return row;
  }

  /** The export unless it expired (an expired one is gone for its clients before the sweep deletes it). */
  async find(organizationId: string, id: string): Promise<ExportRow | null> {
    const rows: ExportRow[] = await this.db.query(
      `SELECT ${COLUMNS} FROM exports WHERE organization_id = $1 AND id = $2 AND (expires_at IS NULL OR expires_at > now())`,
      [organizationId, id],
    );
    return rows[0] ?? null;
  }

  /**
   * Starts a run of an unfinished export from scratch: the run named `runId` becomes the one whose
   * chunks make the file, and the chunks of earlier runs go. Null once the export is finished.
   */
  async startRun(organizationId: string, id: string, runId: string, lease: LeaseTerms): Promise<ExportRow | null> {
    return this.db.transaction(async (tx) => {
      const [rows]: [ExportRow[], number] = await tx.query(
        `UPDATE exports SET status = 'processing', run_id = $3, lease_owner = $4, lease_until = now() + $5 * interval '1 millisecond'
          WHERE organization_id = $1 AND id = $2 AND status IN ('queued', 'processing') RETURNING ${COLUMNS}`,
        [organizationId, id, runId, lease.owner, lease.leaseMs],
      );
      if (rows.length === 0) return null;
      await tx.query(`DELETE FROM export_chunks WHERE organization_id = $1 AND export_id = $2 AND run_id <> $3`, [
        organizationId,
        id,
        runId,
      ]);
      return rows[0];
    });
  }

  /** Pushes the run's lease forward; false once the export finished or another run took it over. */
  async renewLease(organizationId: string, id: string, runId: string, lease: LeaseTerms): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.db.query(
      `UPDATE exports SET lease_owner = $4, lease_until = now() + $5 * interval '1 millisecond'
        WHERE organization_id = $1 AND id = $2 AND run_id = $3 AND status = 'processing'`,
      [organizationId, id, runId, lease.owner, lease.leaseMs],
    );
    return count > 0;
  }

  /**
   * Appends a chunk of the run's file; false when the run was superseded (nothing is written). The
   * run is checked with the export row share-locked, so no takeover commits between the check and
   * the insert: Citus refuses parameters in the select list of an INSERT … SELECT from a
   * distributed table, which did both at once.
   */
  async appendChunk(organizationId: string, id: string, runId: string, seq: number, data: Buffer): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const current: unknown[] = await tx.query(
        `SELECT 1 FROM exports WHERE organization_id = $1 AND id = $2 AND run_id = $3 AND status = 'processing' FOR SHARE`,
        [organizationId, id, runId],
      );
      if (current.length === 0) return false;
      await tx.query(
        `INSERT INTO export_chunks (organization_id, export_id, run_id, seq, data) VALUES ($1, $2, $3, $4, $5)`,
        [organizationId, id, runId, seq, data],
      );
      return true;
    });
  }

  /** Completes the run's export, expiring `ttlMs` later; false when the run was superseded. */
  async complete(organizationId: string, id: string, runId: string, rowCount: number, ttlMs: number): Promise<boolean> {
    const [, count]: [unknown[], number] = await this.db.query(
      `UPDATE exports SET status = 'completed', row_count = $4, completed_at = now(), expires_at = now() + $5 * interval '1 millisecond', lease_owner = NULL, lease_until = NULL
        WHERE organization_id = $1 AND id = $2 AND run_id = $3 AND status = 'processing'`,
      [organizationId, id, runId, rowCount, ttlMs],
    );
    return count > 0;
  }

  /** A run that cannot finish (its filters no longer validate): failed, its chunks gone. */
  async fail(organizationId: string, id: string, runId: string, ttlMs: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE exports SET status = 'failed', completed_at = now(), expires_at = now() + $4 * interval '1 millisecond', lease_owner = NULL, lease_until = NULL
          WHERE organization_id = $1 AND id = $2 AND run_id = $3 AND status = 'processing'`,
        [organizationId, id, runId, ttlMs],
      );
      await tx.query(`DELETE FROM export_chunks WHERE organization_id = $1 AND export_id = $2`, [organizationId, id]);
    });
  }

  /** The chunk after `seq` of the file of the completed export's run, or null past the last one. */
  async chunkAfter(organizationId: string, id: string, runId: string, seq: number): Promise<Chunk | null> {
    const rows: Chunk[] = await this.db.query(
      `SELECT seq, data FROM export_chunks WHERE organization_id = $1 AND export_id = $2 AND run_id = $3 AND seq > $4 ORDER BY seq LIMIT 1`,
      [organizationId, id, runId, seq],
    );
    return rows[0] ?? null;
  }

  /** The chunks of the file of the export's run, in order, read one at a time. */
  async *chunks(organizationId: string, id: string, runId: string): AsyncGenerator<Buffer> {
    for (
      let chunk = await this.chunkAfter(organizationId, id, runId, -1);
      chunk;
      chunk = await this.chunkAfter(organizationId, id, runId, chunk.seq)
    ) {
      yield chunk.data;
    }
  }

  /** Unfinished exports that nobody runs (ReapableJobs.reclaimLapsed), across organizations (exports_unfinished_idx). */
  reclaimLapsed(lease: LeaseTerms, limit: number): Promise<LapsedJob[]> {
    return reclaimLapsedRows(this.db, 'exports', ['queued', 'processing'], lease, limit);
  }

  /** The organization's exports that have a file (completed, not expired), with the run that wrote it. */
  async withFiles(organizationId: string): Promise<{ id: string; run_id: string }[]> {
    return this.db.query(
      `SELECT id, run_id FROM exports WHERE organization_id = $1 AND status = 'completed' AND run_id IS NOT NULL`,
      [organizationId],
    );
  }

  /** The organization's exports, in any state, whose filters contain any of `patterns` (LIKE patterns on the lower-cased text). */
  async filteredBy(organizationId: string, patterns: string[]): Promise<string[]> {
    const rows: Pick<Row<'exports'>, 'id'>[] = await this.db.query(
      `SELECT id FROM exports WHERE organization_id = $1 AND lower(filters::text) LIKE ANY($2::text[])`,
      [organizationId, patterns],
    );
    return rows.map((row) => row.id);
  }

  /** Deletes these exports with their files; resolves how many. */
  async deleteExports(organizationId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const [, count]: [unknown[], number] = await this.db.query(
      `DELETE FROM exports WHERE organization_id = $1 AND id = ANY($2::uuid[])`,
      [organizationId, ids],
    );
    return count;
  }

  /** Deletes at most `limit` expired exports with their chunks, across organizations; resolves how many. */
  async deleteExpired(limit: number): Promise<number> {
    const [, count]: [unknown[], number] = await this.db.query(
      `DELETE FROM exports e USING (SELECT organization_id, id FROM exports WHERE expires_at <= now() LIMIT $1) expired
        WHERE e.organization_id = expired.organization_id AND e.id = expired.id`,
      [limit],
    );
    return count;
  }
}
