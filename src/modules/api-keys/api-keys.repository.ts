import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Row } from '../../common/database/rows';

export type ApiKeyRow = Row<'api_keys'>;

/** The only place that queries api_keys. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The key and its lookup row (api_key_lookups: its hash and id unique across organizations) in one transaction. */
  async insert(
    organizationId: string,
    key: Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'key_hash' | 'scopes'>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO api_key_lookups (id, key_hash, organization_id) VALUES ($1, $2, $3)`, [
        key.id,
        key.key_hash,
        organizationId,
      ]);
      await tx.query(
        `INSERT INTO api_keys (organization_id, id, name, prefix, key_hash, scopes) VALUES ($1, $2, $3, $4, $5, $6)`,
        [organizationId, key.id, key.name, key.prefix, key.key_hash, key.scopes],
      );
    });
  }

  async listForOrganization(organizationId: string): Promise<ApiKeyRow[]> {
    return this.db.query(`SELECT * FROM api_keys WHERE organization_id = $1 ORDER BY created_at, id`, [organizationId]);
  }

  /**
   * The authentication lookup, on a cache miss only: finds the key's organization by hash
   * (api_key_lookups), then the unrevoked key within it, recording its use in the same statement.
   */
  async touchActiveByHash(keyHash: string): Promise<Pick<ApiKeyRow, 'id' | 'organization_id' | 'scopes'> | null> {
    const found = await this.lookup('key_hash', keyHash);
    if (!found) return null;
    const [rows]: [Pick<ApiKeyRow, 'id' | 'organization_id' | 'scopes'>[], number] = await this.db.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL
        RETURNING id, organization_id, scopes`,
      [found.organization_id, found.id],
    );
    return rows[0] ?? null;
  }

  /** Revokes a key by id (admin CLI: the operator names the key, not its organization; api_key_lookups). */
  async revoke(id: string): Promise<ApiKeyRow | null> {
    const found = await this.lookup('id', id);
    if (!found) return null;
    const [rows]: [ApiKeyRow[], number] = await this.db.query(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3::timestamptz) WHERE organization_id = $1 AND id = $2 RETURNING *`,
      [found.organization_id, found.id, new Date()],
    );
    return rows[0] ?? null;
  }

  /** The organization and id of the key with this hash or id, in any organization (both unique). */
  private async lookup(
    column: 'key_hash' | 'id',
    value: string,
  ): Promise<Pick<Row<'api_key_lookups'>, 'organization_id' | 'id'> | null> {
    const rows: Pick<Row<'api_key_lookups'>, 'organization_id' | 'id'>[] = await this.db.query(
      `SELECT organization_id, id FROM api_key_lookups WHERE ${column} = $1`,
      [value],
    );
    return rows[0] ?? null;
  }
}
