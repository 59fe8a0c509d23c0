import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { REDIS } from '../redis/redis.module';

/**
 * The Redis pub/sub channel on which key changes are announced to every API instance. Channels are
 * not scoped to a Redis database: installations sharing one Redis hear each other's announcements,
 * which only makes them forget an entry they may not even hold.
 */
export const API_KEY_CHANGES_CHANNEL = 'api-keys:changes';

/** A key id that was revoked, or the SHA-256 of a key that was created. Never a key. */
export type ApiKeyChange = { revokedKeyId: string } | { createdKeyHash: string };

/** Announces key changes (the api-keys service, in the API and in the admin CLI). */
@Injectable()
export class ApiKeyChanges {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async revoked(keyId: string): Promise<void> {
    await this.announce({ revokedKeyId: keyId });
  }

  async created(keyHash: string): Promise<void> {
    await this.announce({ createdKeyHash: keyHash });
  }

  private async announce(change: ApiKeyChange): Promise<void> {
    await this.redis.publish(API_KEY_CHANGES_CHANNEL, JSON.stringify(change));
  }
}

/** The change a message announces, or null for anything else (the channel is shared, so trust no shape). */
export function parseApiKeyChange(message: string): ApiKeyChange | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { revokedKeyId, createdKeyHash } = parsed as Record<string, unknown>;
  if (typeof revokedKeyId === 'string') return { revokedKeyId };
  if (typeof createdKeyHash === 'string') return { createdKeyHash };
  return null;
}
