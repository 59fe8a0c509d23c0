import type { RedisOptions } from 'ioredis';
import type { TimeoutsConfig } from '../../config/environment';

/**
 * Bull's Redis connections reconnect within a second of Redis coming back (Bull's default backs off
 * to 20 s). Enqueueing from a request is bounded by `enqueue` (job-options.ts), not by the client:
 * a client that gives up on commands (maxRetriesPerRequest) leaves Bull unable to close.
 */
export function bullRedisOptions(redisUrl: string, timeouts: TimeoutsConfig): RedisOptions {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    db: Number(url.pathname.slice(1) || 0),
    ...(url.username && { username: decodeURIComponent(url.username) }),
    ...(url.password && { password: decodeURIComponent(url.password) }),
    ...(url.protocol === 'rediss:' && { tls: {} }),
    connectTimeout: timeouts.redisConnectMs,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
  };
}
