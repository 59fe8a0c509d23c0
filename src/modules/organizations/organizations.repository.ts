import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { Row } from '../../common/database/rows';

/** The only place that queries organizations. */
@Injectable()
export class OrganizationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(id: string, name: string): Promise<Row<'organizations'>> {
    const rows: Row<'organizations'>[] = await this.db.query(
      `INSERT INTO organizations (id, name) VALUES ($1, $2) RETURNING *`,
      [id, name],
    );
    return rows[0];
  }

  async any(): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM organizations LIMIT 1`);
    return rows.length > 0;
  }

  /** Deletes the organization, and by their foreign keys (ON DELETE CASCADE) the rows that reference it. */
  async delete(tx: EntityManager, id: string): Promise<boolean> {
    const [, deleted]: [unknown, number] = await tx.query(`DELETE FROM organizations WHERE id = $1`, [id]);
    return deleted > 0;
  }

  /** Primary key. */
  async exists(id: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`SELECT 1 FROM organizations WHERE id = $1`, [id]);
    return rows.length > 0;
  }
}
