import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { isIdempotentHandler } from '../idempotency/idempotency-key';
import { RequestValidator } from './request-validator';

/**
 * Last global guard: input validation (422) after authentication, rate limit and scope. A guard
 * rather than a global interceptor because any global interceptor puts an rxjs pipeline on every
 * request. @Idempotent() routes are validated by their IdempotencyInterceptor instead, after the
 * key is claimed or replayed (docs/api.md §7.4).
 */
@Injectable()
export class RequestValidationGuard implements CanActivate {
  constructor(private readonly validator: RequestValidator) {}

  canActivate(context: ExecutionContext): boolean {
    if (!isIdempotentHandler(context.getHandler())) this.validator.validate(context);
    return true;
  }
}
