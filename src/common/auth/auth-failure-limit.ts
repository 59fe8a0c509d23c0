import { Inject, Injectable } from '@nestjs/common';
import { AppConfigService } from '../../config/app-config';
import { LimitExceededError } from '../errors/domain-errors';
import { countLimitRejection } from '../metrics/app-metrics';
import { WindowCounter, type Window } from '../counters/window-counter';
import { limitState } from '../counters/windows';
import { REDIS, type RedisClient } from '../redis/redis.module';

const WINDOW_MS = 60_000;
/** Addresses remembered as over their budget; beyond this many, the oldest are asked about again. */
const MAX_BLOCKED = 10_000;

/**
 * Failed authentications per client address (AUTH_FAILURES_PER_CLIENT_PER_MINUTE, a fixed 60 s
 * window in Redis shared by every instance). Past the budget a failure is answered 429 instead of
 * 401, and a key the instance has not verified is refused before it is looked up: a flood of random
 * keys costs the database nothing once the budget is spent. An instance that learnt an address is
 * over its budget remembers it until the window ends, so the flood then costs no Redis call either.
 */
@Injectable()
export class AuthFailureLimit {
  private readonly counter: WindowCounter;
  private readonly perMinute: number;
  /** Client address → when its window ends (ms since the epoch). */
  private readonly blocked = new Map<string, number>();

  constructor(@Inject(REDIS) redis: RedisClient, config: AppConfigService) {
    this.counter = new WindowCounter(redis);
    this.perMinute = config.values.limits.authFailuresPerClientPerMinute;
  }

  /** Before a database lookup of a key: throws the 429 when the address has no failures left. */
  async refuseIfSpent(address: string): Promise<void> {
    this.refuseIfKnownSpent(address);
    let state;
    try {
      state = await this.counter.read(this.window(address));
    } catch {
      // Redis unreachable: no verdict, the key is looked up.
      return;
    }
    if (state.count >= this.perMinute) throw this.refusal(address, state.endsAt);
  }

  /** Counts one failed authentication; throws the 429 when it is one too many. */
  async record(address: string): Promise<void> {
    this.refuseIfKnownSpent(address);
    let result;
    try {
      result = await this.counter.charge([this.window(address)]);
    } catch {
      // Redis unreachable: the caller is unauthenticated either way, so it gets its 401 uncounted.
      return;
    }
    if (!result.allowed) throw this.refusal(address, result.windows[0].endsAt);
  }

  private window(address: string): Window {
    return { key: `limit:auth-failures:${address}`, limit: this.perMinute, ttlMs: WINDOW_MS };
  }

  private refuseIfKnownSpent(address: string, now = Date.now()): void {
    const until = this.blocked.get(address);
    if (until === undefined) return;
    if (until > now) throw this.refusal(address, until, now);
    this.blocked.delete(address);
  }

  /** The 429 with the window's figures; the address is remembered as spent until the window ends. */
  private refusal(address: string, endsAt: number, now = Date.now()): LimitExceededError {
    countLimitRejection('auth-failures');
    if (!this.blocked.has(address)) {
      if (this.blocked.size >= MAX_BLOCKED) {
        const oldest = this.blocked.keys().next().value;
        if (oldest !== undefined) this.blocked.delete(oldest);
      }
      this.blocked.set(address, endsAt);
    }
    return new LimitExceededError(limitState({ limit: this.perMinute, endsAt }, this.perMinute, now));
  }
}
