import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { LimitExceededError, rateLimitHeaders } from '../errors/domain-errors';
import { countLimitRejection } from '../metrics/app-metrics';
import { limitState } from './limits.service';

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
 * - X-RateLimit-Reset is a Unix timestamp, and 429 uses the text of docs/api.md §7.1 and our error filter.
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
      if (typeof limit !== 'number' || typeof ttl !== 'number') throw new Error(`throttler ${name}: limit and ttl must be numbers`);
      return { name: name ?? 'default', limit, ttlMs: ttl };
    });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<AuthenticatedRequest>();
    if (!req.principal) return true;
    for (const window of this.windows) await this.charge(window, req, http.getResponse<Response>());
    return true;
  }

  private async charge({ name, limit, ttlMs }: RequestWindow, req: AuthenticatedRequest, res: Response): Promise<void> {
    const key = `rate:${name}:${req.principal!.keyId}`;
    const record = await this.storageService.increment(key, ttlMs, limit, ttlMs, name);
    // The storage reports whole seconds to reset (see RedisThrottlerStorage).
    const state = limitState({ limit }, { count: record.totalHits, resetInMs: record.timeToExpire * 1000 });
    if (record.isBlocked) countLimitRejection('requests');
    if (record.isBlocked) throw new LimitExceededError(state);
    req.rateLimitKey = key;
    for (const [header, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(header, value);
  }
}
