import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { displayPrefix, generateApiKey, hashApiKey } from '../../common/auth/api-key';
import { ApiKeyChanges } from '../../common/auth/api-key-changes';
import { PrincipalLookup, type Principal } from '../../common/auth/principal';
import { isScope, type Scope } from '../../common/auth/scopes';
import { ApiKeysRepository, type ApiKeyRow } from './api-keys.repository';

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
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly changes: ApiKeyChanges,
  ) {}

  /**
   * Creates a key. Every API instance then forgets the key's hash if it had it cached as unknown; a
   * lost announcement leaves the key refused on that instance for at most the negative cache time,
   * and only if it was presented before it existed, so it does not fail the creation.
   */
  async create(organizationId: string, scopes: Scope[], name: string | null): Promise<CreatedApiKey> {
    const key = generateApiKey();
    const keyHash = hashApiKey(key);
    const unique = [...new Set(scopes)];
    const id = uuidv7();
    await this.keys.insert(organizationId, { id, name, prefix: displayPrefix(key), key_hash: keyHash, scopes: unique });
    await this.changes.created(keyHash).catch(() => undefined);
    return { id, key, scopes: unique };
  }

  async list(organizationId: string): Promise<ApiKeySummary[]> {
    return (await this.keys.listForOrganization(organizationId)).map(toSummary);
  }

  /**
   * Revokes a key and announces it to every API instance, which drop it from their caches at once.
   * Revoking again announces again, so a failed announcement (Redis unreachable: the error
   * propagates) is retried by repeating the command.
   */
  async revoke(id: string): Promise<ApiKeySummary | null> {
    const key = await this.keys.revoke(id);
    if (!key) return null;
    await this.changes.revoked(key.id).catch(() => {
      throw new Error(
        'The key is revoked, but API instances could not be told (Redis unreachable): they refuse it within API_KEY_CACHE_TTL_SECONDS. Revoke it again to retry.',
      );
    });
    return toSummary(key);
  }

  async findActiveByHash(keyHash: string): Promise<Principal | null> {
    const key = await this.keys.touchActiveByHash(keyHash);
    if (!key) return null;
    return { keyId: key.id, organizationId: key.organization_id, scopes: key.scopes.filter(isScope) };
  }
}

function toSummary(key: ApiKeyRow): ApiKeySummary {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    createdAt: key.created_at.toISOString(),
    lastUsedAt: key.last_used_at?.toISOString() ?? null,
    revokedAt: key.revoked_at?.toISOString() ?? null,
  };
}
