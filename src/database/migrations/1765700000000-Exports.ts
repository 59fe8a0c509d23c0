import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Exports (issue 20 point 5). The file lives in PostgreSQL, not on disk (read-only root filesystem,
 * several replicas): gzip bytes in chunks of about 1 MiB, numbered per run. `run_id` names the run
 * whose chunks make the file; a run that was superseded (its worker lost the lease and another
 * started over) writes no further chunk, and what it left is never read. Chunks go with their export.
 */
export class Exports1765700000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE exports (
        organization_id uuid NOT NULL,
        id uuid NOT NULL,
        resource varchar(32) NOT NULL,
        format varchar(8) NOT NULL,
        filters jsonb NOT NULL DEFAULT '{}',
        status varchar(16) NOT NULL DEFAULT 'queued',
        row_count integer,
        run_id uuid,
        lease_owner varchar(128),
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        expires_at timestamptz,
        PRIMARY KEY (organization_id, id),
        CONSTRAINT exports_organization_id_fkey FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
        CONSTRAINT exports_status_check CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
        CONSTRAINT exports_format_check CHECK (format IN ('csv', 'ndjson'))
      )`);
    await queryRunner.query(
      `CREATE INDEX exports_unfinished_idx ON exports (created_at) WHERE status IN ('queued', 'processing')`,
    );
    await queryRunner.query(`CREATE INDEX exports_expiry_idx ON exports (expires_at) WHERE expires_at IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE export_chunks (
        organization_id uuid NOT NULL,
        export_id uuid NOT NULL,
        run_id uuid NOT NULL,
        seq integer NOT NULL,
        data bytea NOT NULL,
        PRIMARY KEY (organization_id, export_id, run_id, seq),
        CONSTRAINT export_chunks_export_fkey FOREIGN KEY (organization_id, export_id) REFERENCES exports (organization_id, id) ON DELETE CASCADE
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE export_chunks`);
    await queryRunner.query(`DROP TABLE exports`);
  }
}
