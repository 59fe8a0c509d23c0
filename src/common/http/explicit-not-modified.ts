import type { Express, Request } from 'express';

/**
 * Express answers 304 by itself whenever a request's validators look fresh, including
 * `If-None-Match: *` on a response that has no ETag at all. Only responses that carry an ETag (the
 * share cards; the polled jobs, whose ConditionalGet sets 304 itself) may be Not Modified; every
 * other GET answers in full, as the OpenAPI document declares.
 *
 * Redefined once on the app's request prototype (every request inherits from it), not per request:
 * an own accessor on each request would cost a closure and a new hidden class per request.
 */
export function answerNotModifiedOnlyWithETag(app: Express): void {
  const prototype = app.request as Request;
  const express =
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(prototype) as object, 'fresh') ??
    Object.getOwnPropertyDescriptor(prototype, 'fresh');
  const freshByExpress = express?.get;
  if (!freshByExpress) throw new Error('express request has no fresh getter');
  Object.defineProperty(prototype, 'fresh', {
    configurable: true,
    enumerable: true,
    get(this: Request): boolean {
      return this.res !== undefined && this.res.hasHeader('ETag') && (freshByExpress.call(this) as boolean);
    },
  });
}
