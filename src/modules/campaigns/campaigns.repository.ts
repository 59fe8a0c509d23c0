import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import { ConflictError } from '../../common/errors/domain-errors';
import { CampaignEntity } from './entities/campaign.entity';

const UNIQUE_VIOLATION = '23505';

/** The only place that queries campaigns; every statement is scoped by organization_id. */
@Injectable()
export class CampaignsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private campaigns(tx: EntityManager | DataSource = this.db) {
    return tx.getRepository(CampaignEntity);
  }

  /** Newest first, then id (campaigns_created_idx). */
  async listForOrganization(organizationId: string): Promise<CampaignEntity[]> {
    return this.campaigns().find({ where: { organizationId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** Inserts a campaign; a name already used in the organization (any case) is a ConflictError. */
  async insert(campaign: CampaignEntity, tx?: EntityManager): Promise<CampaignEntity> {
    const campaigns = this.campaigns(tx);
    return this.translateNameClash(() => campaigns.save(campaigns.create(campaign)));
  }

  /** Renames in one statement; returns null when the campaign is not in the organization. */
  async rename(organizationId: string, id: string, name: string, tx: EntityManager | DataSource = this.db): Promise<CampaignEntity | null> {
    const [rows] = await this.translateNameClash<[{ name: string; created_at: Date; updated_at: Date }[], number]>(() =>
      tx.query(
        `UPDATE campaigns SET name = $3, updated_at = now()
          WHERE organization_id = $1 AND id = $2 RETURNING name, created_at, updated_at`,
        [organizationId, id, name],
      ),
    );
    const [row] = rows;
    return row ? { organizationId, id, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at } : null;
  }

  /** Deletes; returns false when the campaign is not in the organization. */
  async delete(organizationId: string, id: string, tx: EntityManager | DataSource = this.db): Promise<boolean> {
    const [, count]: [unknown[], number] = await tx.query(`DELETE FROM campaigns WHERE organization_id = $1 AND id = $2`, [organizationId, id]);
    return count > 0;
  }

  async exists(organizationId: string, id: string, tx: EntityManager | DataSource = this.db): Promise<boolean> {
    const rows: unknown[] = await tx.query(`SELECT 1 FROM campaigns WHERE organization_id = $1 AND id = $2`, [organizationId, id]);
    return rows.length > 0;
  }

  /** The campaign of this name (any case), created when absent; safe under concurrent callers. */
  async findOrCreateByName(organizationId: string, name: string, tx: EntityManager | DataSource = this.db): Promise<string> {
    await tx.query(
      `INSERT INTO campaigns (organization_id, id, name) VALUES ($1, $2, $3) ON CONFLICT (organization_id, lower(name)) DO NOTHING`,
      [organizationId, uuidv7(), name],
    );
    const rows: { id: string }[] = await tx.query(`SELECT id FROM campaigns WHERE organization_id = $1 AND lower(name) = lower($2)`, [organizationId, name]);
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
