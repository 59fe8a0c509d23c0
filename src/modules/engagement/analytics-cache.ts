import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../common/canonical-json';
import { analyticsCacheLookups } from '../../common/metrics/cache-metrics';
import { REDIS, type RedisClient } from '../../common/redis/redis.module';

/** How long an answer is kept at most (its version usually changes sooner). */
const KEPT_SECONDS = 300;

/**
 * Answers of the analytics API computed from the fold's aggregates, kept per organization and
 * version of its aggregates (docs/api.md §6.9): every write of them (a fold, a link moving, a refold)
 * counts the version up, so a kept answer is the one the aggregates would give now. Shared by the
 * instances through Redis; one computation per question at a time in a process. Redis failing only
 * means computing again.
 */
@Injectable()
export class AnalyticsCache {
  private readonly computing = new Map<string, Promise<unknown>>();

  constructor(@Inject(REDIS) private readonly redis: RedisClient) {}

  async remember<T>(organizationId: string, version: string, question: object, compute: () => Promise<T>): Promise<T> {
    const digest = createHash('sha256').update(canonicalJson(question)).digest('base64url');
    const key = `analytics:${organizationId}:${version}:${digest}`;
    const kept = await this.redis.get(key).catch(() => null);
    if (kept !== null) {
      analyticsCacheLookups.hit();
      return JSON.parse(kept) as T;
    }
    analyticsCacheLookups.miss();
    const running = this.computing.get(key) as Promise<T> | undefined;
    if (running) return running;
    const answer = compute().finally(() => this.computing.delete(key));
    this.computing.set(key, answer);
    const computed = await answer;
    await this.redis.set(key, JSON.stringify(computed), 'EX', KEPT_SECONDS).catch(() => undefined);
    return computed;
  }
}
