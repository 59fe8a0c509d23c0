import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ApiKeyEntity } from './entities/api-key.entity';

@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  async insert(
    key: Pick<ApiKeyEntity, 'organizationId' | 'id' | 'name' | 'prefix' | 'keyHash' | 'scopes'>,
  ): Promise<ApiKeyEntity> {
    return this.keys.save(this.keys.create(key));
  }

  async listForOrganization(organizationId: string): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { organizationId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * The authentication lookup, on a cache miss only: finds an unrevoked key by hash and records
   * its use in the same statement (api_keys_key_hash_key).
   */
  async touchActiveByHash(keyHash: string): Promise<Pick<ApiKeyEntity, 'id' | 'organizationId' | 'scopes'> | null> {
    const [rows]: [{ id: string; organization_id: string; scopes: string[] }[], number] = await this.keys.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE key_hash = $1 AND revoked_at IS NULL
        RETURNING id, organization_id, scopes`,
      [keyHash],
    );
    const [row] = rows;
    return row ? { id: row.id, organizationId: row.organization_id, scopes: row.scopes } : null;
  }

  /** Revokes a key by id (admin CLI: the operator names the key, not its organization). */
  async revoke(id: string): Promise<ApiKeyEntity | null> {
    await this.keys.query(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1`, [id]);
    return this.keys.findOne({ where: { id } });
  }
}
