import type { ThrottlerStorage } from '@nestjs/throttler';
import type { WindowCounter } from '../counters/window-counter';

/** What RedisThrottlerStorage answers beyond @nestjs/throttler's record: the window's end, exact. */
export type WindowRecord = Awaited<ReturnType<ThrottlerStorage['increment']>> & {
  /** Unix milliseconds, a whole second (WindowCounter). */
  endsAt: number;
  /** The instant the window was charged at (a refund names it). */
  chargedAt: number;
};

/**
 * @nestjs/throttler storage on the shared window counters: one Redis round trip per request, one
 * budget across every API instance, and a refused request is not counted against the key.
 */
export class RedisThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly counter: WindowCounter) {}

  async increment(key: string, ttl: number, limit: number): Promise<WindowRecord> {
    const chargedAt = Date.now();
    const result = await this.counter.charge([{ key, limit, ttlMs: ttl }], 1, chargedAt);
    const [state] = result.windows;
    const seconds = Math.max(1, Math.ceil((state.endsAt - chargedAt) / 1000));
    return {
      totalHits: state.count,
      timeToExpire: seconds,
      isBlocked: !result.allowed,
      timeToBlockExpire: seconds,
      endsAt: state.endsAt,
      chargedAt,
    };
  }
}
