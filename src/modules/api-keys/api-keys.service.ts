import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { displayPrefix, generateApiKey, hashApiKey } from '../../common/auth/api-key';
import { PrincipalLookup, type Principal } from '../../common/auth/principal';
import { isScope, type Scope } from '../../common/auth/scopes';
import { ApiKeysRepository } from './api-keys.repository';
import type { ApiKeyEntity } from './entities/api-key.entity';

export interface CreatedApiKey {
  id: string;
  /** Shown once, at creation. */
  key: string;
  scopes: Scope[];
}

export interface ApiKeySummary {
  id: string;
  name: string | null;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

@Injectable()
export class ApiKeysService implements PrincipalLookup {
  constructor(private readonly keys: ApiKeysRepository) {}

  async create(organizationId: string, scopes: Scope[], name: string | null): Promise<CreatedApiKey> {
    const key = generateApiKey();
    const unique = [...new Set(scopes)];
    const record = await this.keys.insert({
      organizationId,
      id: uuidv7(),
      name,
      prefix: displayPrefix(key),
      keyHash: hashApiKey(key),
      scopes: unique,
    });
    return { id: record.id, key, scopes: unique };
  }

  async list(organizationId: string): Promise<ApiKeySummary[]> {
    return (await this.keys.listForOrganization(organizationId)).map(toSummary);
  }

  async revoke(id: string): Promise<ApiKeySummary | null> {
    const key = await this.keys.revoke(id);
    return key ? toSummary(key) : null;
  }

  async findActiveByHash(keyHash: string): Promise<Principal | null> {
    const key = await this.keys.touchActiveByHash(keyHash);
    if (!key) return null;
    return { keyId: key.id, organizationId: key.organizationId, scopes: key.scopes.filter(isScope) };
  }
}

function toSummary(key: ApiKeyEntity): ApiKeySummary {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
