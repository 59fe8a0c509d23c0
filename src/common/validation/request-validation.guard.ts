import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { isIdempotentHandler } from './idempotency-key';
import { JsonBodyReader } from './json-body';
import { RequestValidator } from './request-validator';

/**
 * Last global guard: the request's input, after authentication, rate limit and scope. It reads the
 * JSON body (413), so no body is parsed for a request those refuse, then validates path, query,
 * header and body (422). A guard rather than a global interceptor because any global interceptor
 * puts an rxjs pipeline on every request. @Idempotent() routes are validated by their
 * IdempotencyInterceptor instead, after the key is claimed or replayed (docs/api.md §7.4).
 */
@Injectable()
export class RequestValidationGuard implements CanActivate {
  private readonly body: JsonBodyReader;

  constructor(
    private readonly validator: RequestValidator,
    reflector: Reflector,
  ) {
    this.body = new JsonBodyReader(reflector);
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const reading = this.body.read(context);
    if (!reading) return this.validate(context);
    return reading.then(() => this.validate(context));
  }

  private validate(context: ExecutionContext): boolean {
    if (!isIdempotentHandler(context.getHandler())) this.validator.validate(context);
    return true;
  }
}
