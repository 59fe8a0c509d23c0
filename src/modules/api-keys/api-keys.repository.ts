import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Row } from '../../common/database/rows';

export type ApiKeyRow = Row<'api_keys'>;

/** The only place that queries api_keys. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(
    organizationId: string,
    key: Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'key_hash' | 'scopes'>,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO api_keys (organization_id, id, name, prefix, key_hash, scopes) VALUES ($1, $2, $3, $4, $5, $6)`,
      [organizationId, key.id, key.name, key.prefix, key.key_hash, key.scopes],
    );
  }

  async listForOrganization(organizationId: string): Promise<ApiKeyRow[]> {
    return this.db.query(`SELECT * FROM api_keys WHERE organization_id = $1 ORDER BY created_at, id`, [organizationId]);
  }

  /**
   * The authentication lookup, on a cache miss only: finds an unrevoked key by hash and records
   * its use in the same statement (api_keys_key_hash_key).
   */
  async touchActiveByHash(keyHash: string): Promise<Pick<ApiKeyRow, 'id' | 'organization_id' | 'scopes'> | null> {
    const [rows]: [Pick<ApiKeyRow, 'id' | 'organization_id' | 'scopes'>[], number] = await this.db.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE key_hash = $1 AND revoked_at IS NULL
        RETURNING id, organization_id, scopes`,
      [keyHash],
    );
    return rows[0] ?? null;
  }

  /** Revokes a key by id (admin CLI: the operator names the key, not its organization; api_keys_id_key). */
  async revoke(id: string): Promise<ApiKeyRow | null> {
    const [rows]: [ApiKeyRow[], number] = await this.db.query(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2::timestamptz) WHERE id = $1 RETURNING *`,
      [id, new Date()],
    );
    return rows[0] ?? null;
  }
}
