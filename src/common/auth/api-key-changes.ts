import { Inject, Injectable } from '@nestjs/common';
import { Cluster } from 'ioredis';
import { REDIS, type RedisClient } from '../redis/redis.module';

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
  constructor(@Inject(REDIS) private readonly redis: RedisClient) {}

  async revoked(keyId: string): Promise<void> {
    await this.announce({ revokedKeyId: keyId });
  }

  async created(keyHash: string): Promise<void> {
    await this.announce({ createdKeyHash: keyHash });
  }

  private async announce(change: ApiKeyChange): Promise<void> {
    const message = JSON.stringify(change);
    // A cluster's subscribers listen on the master owning the channel's slot (principal-cache-feed.ts).
    if (this.redis instanceof Cluster) await this.redis.spublish(API_KEY_CHANGES_CHANNEL, message);
    else await this.redis.publish(API_KEY_CHANGES_CHANNEL, message);
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
