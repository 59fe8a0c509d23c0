import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import type { Response } from 'express';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { LimitExceededError, rateLimitHeaders } from '../errors/api-errors';
import { limitState } from './limits.service';

/**
 * The request-rate limit (SPEC §8) on @nestjs/throttler, adapted to the API's rules:
 * - counted per API key, not per route (the default key includes the route);
 * - only authenticated requests (runs after ApiKeyGuard; public routes have no principal);
 * - X-RateLimit-Reset is a Unix timestamp, and 429 uses SPEC's text and our error filter.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return !context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    return (req as unknown as AuthenticatedRequest).principal!.keyId;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `rate:${throttlerName}:${tracker}`;
  }

  protected override async handleRequest({ context, limit, ttl, throttler, blockDuration, getTracker, generateKey }: ThrottlerRequest): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<AuthenticatedRequest>();
    const res = http.getResponse<Response>();
    const key = generateKey(context, await getTracker(req, context), throttler.name ?? 'default');
    const record = await this.storageService.increment(key, ttl, limit, blockDuration, throttler.name ?? 'default');
    // The storage reports whole seconds to reset (see RedisThrottlerStorage).
    const state = limitState({ limit }, { count: record.totalHits, resetInMs: record.timeToExpire * 1000 });
    if (record.isBlocked) throw new LimitExceededError(state);
    req.rateLimitKey = key;
    for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
    return true;
  }
}
