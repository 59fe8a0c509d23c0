import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { countCacheLookups } from '../metrics/cache-metrics';
import { REDIS, type RedisClient } from '../redis/redis.module';
import type { PaginationQuery } from './pagination.query';

const TTL_SECONDS = 600;

/**
 * Exact list totals without recounting a large organization on every page. A count is cached
 * under the organization's data version for that list; every write that can change a total bumps
 * the version (after its commit), so a cached count is never older than the last committed write
 * that preceded the read. Shared by all instances through Redis. Each list is named by the module
 * that owns it; the name is part of the Redis keys.
 */
@Injectable()
export class CountCache {
  /** Counts being computed by this process, by cache key: concurrent misses for one total share one count. */
  private readonly inFlight = new Map<string, Promise<number>>();

  constructor(@Inject(REDIS) private readonly redis: RedisClient) {}

  /** The total for a list query; the page (limit, offset, cursor) is not part of the key. */
  async count(
    list: string,
    organizationId: string,
    query: PaginationQuery,
    compute: () => Promise<number>,
  ): Promise<number> {
    const { limit: _limit, offset: _offset, cursor: _cursor, offsetGiven: _given, ...filters } = query;
    const version = (await this.redis.get(versionKey(list, organizationId))) ?? '0';
    const filterHash = createHash('sha1').update(JSON.stringify(filters)).digest('hex');
    const key = `count:${list}:${organizationId}:${version}:${filterHash}`;
    const cached = await this.redis.get(key);
    if (cached !== null) {
      countCacheLookups.hit();
      return Number(cached);
    }
    countCacheLookups.miss();
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const counting = this.computeAndStore(key, compute).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, counting);
    return counting;
  }

  private async computeAndStore(key: string, compute: () => Promise<number>): Promise<number> {
    const total = await compute();
    await this.redis.set(key, String(total), 'EX', TTL_SECONDS);
    return total;
  }

  /** Call after committing a write that may change the organization's totals for these lists. */
  async invalidate(organizationId: string, ...lists: string[]): Promise<void> {
    await Promise.all(lists.map((list) => this.redis.incr(versionKey(list, organizationId))));
  }
}

const versionKey = (list: string, organizationId: string) => `count-version:${list}:${organizationId}`;
