import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { LimitExceededError, rateLimitHeaders } from '../errors/domain-errors';
import { countLimitRejection } from '../metrics/app-metrics';
import type { RequestCharge } from './limits.service';
import type { WindowRecord } from './redis-throttler.storage';
import { limitState } from '../counters/windows';

/** `rateLimitCharge`: the request-rate window this request was charged to, when (a 304 gives it back), and its count after. */
export type RateLimitedRequest = AuthenticatedRequest & { rateLimitCharge?: RequestCharge };

interface RequestWindow {
  name: string;
  limit: number;
  ttlMs: number;
}

/**
 * The request-rate limit (docs/api.md §8.1) on @nestjs/throttler's module and storage, adapted to
 * the API's rules:
 * - counted per API key, not per route (the default key includes the route);
 * - only authenticated requests (runs after ApiKeyGuard; public routes have no principal);
 * - X-RateLimit-Reset is the window's end as a Unix timestamp, exact to the second, and Retry-After
 *   the seconds to it; 429 uses the text of docs/api.md §7.1 and our error filter.
 *
 * The module's throttlers apply to every route as configured: ThrottlerGuard's own canActivate
 * reads six pieces of route metadata per request for @Throttle / @SkipThrottle, which no route
 * uses (and which this guard therefore does not honour), so a request costs one Redis round trip
 * and nothing else.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private windows: RequestWindow[] = [];

  override async onModuleInit(): Promise<void> {
    await super.onModuleInit();
    this.windows = this.throttlers.map(({ name, limit, ttl }) => {
      if (typeof limit !== 'number' || typeof ttl !== 'number')
        throw new Error(`throttler ${name}: limit and ttl must be numbers`);
      return { name: name ?? 'default', limit, ttlMs: ttl };
    });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<RateLimitedRequest>();
    if (!req.principal) return true;
    for (const window of this.windows) await this.charge(window, req, http.getResponse<Response>());
    return true;
  }

  private async charge({ name, limit, ttlMs }: RequestWindow, req: RateLimitedRequest, res: Response): Promise<void> {
    const window = { key: `rate:${name}:${req.principal!.keyId}`, limit, ttlMs };
    // The storage configured in LimitsModule (RedisThrottlerStorage) reports the window's end.
    const record = (await this.storageService.increment(window.key, ttlMs, limit, ttlMs, name)) as WindowRecord;
    const state = limitState({ limit, endsAt: record.endsAt }, record.totalHits, Date.now());
    if (record.isBlocked) countLimitRejection('requests');
    if (record.isBlocked) throw new LimitExceededError(state);
    req.rateLimitCharge = {
      window,
      chargedAt: record.chargedAt,
      state: { count: record.totalHits, endsAt: record.endsAt },
    };
    for (const [header, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(header, value);
  }
}
