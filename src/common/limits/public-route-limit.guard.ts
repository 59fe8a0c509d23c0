import { applyDecorators, Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import { AppConfigService } from '../../config/app-config';
import type { AppConfig } from '../../config/environment';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { clientAddressOf } from '../http/client-address';
import { LimitsService } from './limits.service';
import type { Window } from '../counters/window-counter';

const PUBLIC_ROUTE_LIMITS = 'limits:publicRoute';
const WINDOW_MS = 60_000;
/** Longer path values (no real slug or id is) are counted under their hash, keeping Redis keys short. */
const MAX_RAW_VALUE_LENGTH = 64;

/** One fixed 60 s window of a public route, counted per client address or per value of a path parameter. */
export interface PublicRouteLimit {
  /** Names the counter: `limit:<name>:<client address or parameter value>`. */
  name: string;
  /** The configured number of requests per window. */
  perMinute: keyof AppConfig['limits'];
  per: 'client' | { param: string };
}

/**
 * Limits a @Public() route (no key, so no request rate per key): every request is charged to each
 * window, all or none (a window that refuses gives back the ones charged before it), before the body is read or the handler runs; a refused one is 429 with
 * Retry-After and the X-RateLimit-* figures of the window that refused it (docs/api.md §8.5).
 */
export const PublicRouteLimits = (...limits: PublicRouteLimit[]) =>
  applyDecorators(
    SetMetadata(PUBLIC_ROUTE_LIMITS, limits),
    ApiTooManyRequestsResponse({
      description: 'Too many requests from this client address, or for this resource (Retry-After).',
    }),
  );

/** Charges the windows a route declares with @PublicRouteLimits(); runs after the key and request-rate guards. */
@Injectable()
export class PublicRouteLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limits: LimitsService,
    private readonly config: AppConfigService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Authenticated routes are limited per key (RateLimitGuard); this costs them nothing more.
    if (req.principal) return true;
    const declared = this.reflector.get<PublicRouteLimit[] | undefined>(PUBLIC_ROUTE_LIMITS, context.getHandler());
    // One window per group: a client's and a link's windows have different keys, which a Redis
    // Cluster keeps in different slots, beyond one script; a refusal gives back the ones charged.
    if (declared)
      await this.limits.reserveAllOrNone(
        declared.map((limit) => ({ windows: [this.windowOf(limit, req)], units: 1 })),
        Date.now(),
      );
    return true;
  }

  private windowOf({ name, perMinute, per }: PublicRouteLimit, req: AuthenticatedRequest): Window {
    const subject = per === 'client' ? clientAddressOf(req) : counterValue(String(req.params[per.param] ?? ''));
    return { key: `limit:${name}:${subject}`, limit: this.config.values.limits[perMinute], ttlMs: WINDOW_MS };
  }
}

function counterValue(value: string): string {
  return value.length <= MAX_RAW_VALUE_LENGTH ? value : `sha256:${createHash('sha256').update(value).digest('hex')}`;
}
