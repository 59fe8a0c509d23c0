import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AppConfigService } from '../../config/app-config';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { AuthFailureLimit } from '../auth/auth-failure-limit';
import { PrincipalCache } from '../auth/principal-cache';
import { PrincipalCacheFeed } from '../auth/principal-cache-feed';
import { ScopeGuard } from '../auth/scope.guard';
import { ApiExceptionFilter } from '../errors/api-exception.filter';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PublicRouteLimitGuard } from '../limits/public-route-limit.guard';
import { RateLimitGuard } from '../limits/rate-limit.guard';
import { RequestValidationGuard } from '../validation/request-validation.guard';
import { GracefulShutdown } from '../http/graceful-shutdown';
import { TrustProxySetting } from '../http/trust-proxy';

const PIPELINE_PROVIDERS = [
  GracefulShutdown,
  TrustProxySetting,
  {
    provide: PrincipalCache,
    inject: [AppConfigService],
    useFactory: ({ values }: AppConfigService) =>
      new PrincipalCache({
        ttlMs: values.apiKeyCacheTtlSeconds * 1000,
        negativeTtlMs: values.apiKeyNegativeCacheTtlSeconds * 1000,
      }),
  },
  PrincipalCacheFeed,
  AuthFailureLimit,
  { provide: APP_GUARD, useClass: ApiKeyGuard },
  { provide: APP_GUARD, useClass: RateLimitGuard },
  { provide: APP_GUARD, useClass: PublicRouteLimitGuard },
  { provide: APP_GUARD, useClass: ScopeGuard },
  { provide: APP_GUARD, useClass: RequestValidationGuard },
  { provide: APP_FILTER, useClass: ApiExceptionFilter },
];

/**
 * The request pipeline every route goes through, in the order of docs/api.md §7.4:
 * authenticate (401, or 429 past the client's failure budget) → request rate (429; per client on
 * public routes that declare it) → scope (403) → body read (413, after the key: an
 * unauthenticated body is never parsed) → idempotency replay / 409 → validation of path, query,
 * header, body (422) → handler (404, 400, 409 ...) → error filter.
 * Guards run in the order they are registered here. There is no global interceptor (each would cost
 * every request an rxjs pipeline): @Idempotent() routes get IdempotencyInterceptor, which validates
 * after the key, and the validation guard leaves them to it.
 */
@Module({})
export class HttpPipelineModule {
  /** `principalLookupModule` exports the PrincipalLookup that resolves API keys. */
  static forRoot(principalLookupModule: Type): DynamicModule {
    return {
      module: HttpPipelineModule,
      imports: [principalLookupModule, IdempotencyModule],
      providers: PIPELINE_PROVIDERS,
    };
  }
}
