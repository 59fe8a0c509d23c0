import type { ThrottlerStorage } from '@nestjs/throttler';
import type { WindowCounter } from './window-counter';

/**
 * @nestjs/throttler storage on the shared window counters: one Redis round trip per request, one
 * budget across every API instance, and a refused request is not counted against the key.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly counter: WindowCounter) {}

  async increment(key: string, ttl: number, limit: number): ReturnType<ThrottlerStorage['increment']> {
    const result = await this.counter.charge([{ key, limit, ttlMs: ttl }]);
    const [state] = result.windows;
    const seconds = Math.ceil(state.resetInMs / 1000);
    return { totalHits: state.count, timeToExpire: seconds, isBlocked: !result.allowed, timeToBlockExpire: seconds };
  }
}
