import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import { ConflictError } from '../../common/errors/domain-errors';
import type { Row } from '../../common/database/rows';
import { SortKey, type Keyset, type PageWindow } from '../../common/pagination/cursor';

const UNIQUE_VIOLATION = '23505';

/** A campaign as responses show it. */
export type CampaignRow = Pick<Row<'campaigns'>, 'id' | 'name' | 'created_at' | 'updated_at'>;

/** The only place that queries campaigns; every statement is scoped by organization_id. */
@Injectable()
export class CampaignsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A page of campaigns, newest first, then id (campaigns_created_idx), and how many the organization has. */
  async listPage(
    organizationId: string,
    window: PageWindow,
  ): Promise<{ rows: (CampaignRow & { keyset: Keyset })[]; total: number }> {
    const params: unknown[] = [organizationId, window.limit, window.skip];
    const after =
      window.after === null ? '' : `AND ${NEWEST_FIRST.after(window.after, (value) => `$${params.push(value)}`)}`;
    const [rows, [count]] = await Promise.all([
      this.db.query<(CampaignRow & { keyset: Keyset })[]>(
        `SELECT id, name, created_at, updated_at, ${NEWEST_FIRST.select()}
           FROM campaigns WHERE organization_id = $1 ${after} ORDER BY ${NEWEST_FIRST.orderBy()} LIMIT $2 OFFSET $3`,
        params,
      ),
      this.db.query<{ total: string }[]>(`SELECT count(*) AS total FROM campaigns WHERE organization_id = $1`, [
        organizationId,
      ]),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** Inserts a campaign; a name already used in the organization (any case) is a ConflictError. */
  async insert(
    organizationId: string,
    campaign: CampaignRow,
    tx: EntityManager | DataSource = this.db,
  ): Promise<CampaignRow> {
    const rows = await this.translateNameClash<CampaignRow[]>(() =>
      tx.query(
        `INSERT INTO campaigns (organization_id, id, name, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)
         RETURNING id, name, created_at, updated_at`,
        [organizationId, campaign.id, campaign.name, campaign.created_at, campaign.updated_at],
      ),
    );
    return rows[0];
  }

  /** Renames in one statement; returns null when the campaign is not in the organization. */
  async rename(
    organizationId: string,
    id: string,
    name: string,
    tx: EntityManager | DataSource = this.db,
  ): Promise<CampaignRow | null> {
    const [rows] = await this.translateNameClash<[CampaignRow[], number]>(() =>
      tx.query(
        `UPDATE campaigns SET name = $3, updated_at = now()
          WHERE organization_id = $1 AND id = $2 RETURNING id, name, created_at, updated_at`,
        [organizationId, id, name],
      ),
    );
    return rows[0] ?? null;
  }

  /**
   * Locks the campaign's row for the rest of the transaction: a link being filed into it from then on
   * waits (its foreign-key check), then finds it gone. False when the campaign is not in the organization.
   */
  async lock(organizationId: string, id: string, tx: EntityManager): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `SELECT 1 FROM campaigns WHERE organization_id = $1 AND id = $2 FOR UPDATE`,
      [organizationId, id],
    );
    return rows.length > 0;
  }

  /** Deletes; returns false when the campaign is not in the organization. */
  async delete(organizationId: string, id: string, tx: EntityManager | DataSource = this.db): Promise<boolean> {
    const [, count]: [unknown[], number] = await tx.query(
      `DELETE FROM campaigns WHERE organization_id = $1 AND id = $2`,
      [organizationId, id],
    );
    return count > 0;
  }

  async exists(organizationId: string, id: string, tx: EntityManager | DataSource = this.db): Promise<boolean> {
    const rows: unknown[] = await tx.query(`SELECT 1 FROM campaigns WHERE organization_id = $1 AND id = $2`, [
      organizationId,
      id,
    ]);
    return rows.length > 0;
  }

  /** The campaign of this name (any case), created when absent; safe under concurrent callers. */
  async findOrCreateByName(
    organizationId: string,
    name: string,
    tx: EntityManager | DataSource = this.db,
  ): Promise<string> {
    await tx.query(
      `INSERT INTO campaigns (organization_id, id, name) VALUES ($1, $2, $3) ON CONFLICT (organization_id, lower(name)) DO NOTHING`,
      [organizationId, uuidv7(), name],
    );
    const rows: Pick<Row<'campaigns'>, 'id'>[] = await tx.query(
      `SELECT id FROM campaigns WHERE organization_id = $1 AND lower(name) = lower($2)`,
      [organizationId, name],
    );
    return rows[0].id;
  }

  private async translateNameClash<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === UNIQUE_VIOLATION) {
        throw new ConflictError();
      }
      throw error;
    }
  }
}

const NEWEST_FIRST = new SortKey([
  { sql: 'created_at', type: 'timestamptz', descending: true },
  { sql: 'id', type: 'uuid', descending: true },
]);
