import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { preparedQuery } from '../../common/database/prepared-query';
import type { Row } from '../../common/database/rows';

type SaltRow = Pick<Row<'suppression_salts'>, 'salt'>;

/** The only place that queries suppression_salts and privacy_suppressions. */
@Injectable()
export class SuppressionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The organization's salt, `candidate` stored first if it has none. Two statements, so that of
   * concurrent first uses each reads the salt that won: the insert waits for a rival's to commit,
   * then does nothing, and the read, a new statement, sees the rival's row.
   */
  async saltFor(tx: EntityManager, organizationId: string, candidate: Buffer): Promise<Buffer> {
    await tx.query(
      `INSERT INTO suppression_salts (organization_id, salt) VALUES ($1, $2) ON CONFLICT (organization_id) DO NOTHING`,
      [organizationId, candidate],
    );
    const rows: SaltRow[] = await tx.query(`SELECT salt FROM suppression_salts WHERE organization_id = $1`, [
      organizationId,
    ]);
    return rows[0].salt;
  }

  /** Primary key; prepared (session ingestion and link creation read it until the organization has one). */
  async salt(organizationId: string): Promise<Buffer | null> {
    const rows = await preparedQuery<SaltRow>(
      this.db,
      `SELECT salt FROM suppression_salts WHERE organization_id = $1`,
      [organizationId],
    );
    return rows[0]?.salt ?? null;
  }

  async add(tx: EntityManager, organizationId: string, emailHash: string): Promise<void> {
    await tx.query(
      `INSERT INTO privacy_suppressions (organization_id, email_hash) VALUES ($1, $2)
       ON CONFLICT (organization_id, email_hash) DO NOTHING`,
      [organizationId, emailHash],
    );
  }

  /** Of `emailHashes`, those on the organization's list: probes of the primary key; prepared. */
  async listed(organizationId: string, emailHashes: readonly string[]): Promise<Set<string>> {
    const rows = await preparedQuery<Pick<Row<'privacy_suppressions'>, 'email_hash'>>(
      this.db,
      `SELECT email_hash FROM privacy_suppressions WHERE organization_id = $1 AND email_hash = ANY($2::bpchar[])`,
      [organizationId, emailHashes],
    );
    return new Set(rows.map((row) => row.email_hash));
  }
}
