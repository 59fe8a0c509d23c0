import type { NextFunction, Request, Response } from 'express';

/**
 * Express answers 304 by itself whenever a request's validators look fresh, including
 * `If-None-Match: *` on a response that has no ETag at all. Only responses that carry an ETag (the
 * share cards; the polled jobs, whose ConditionalGet sets 304 itself) may be Not Modified; every
 * other GET answers in full, as the OpenAPI document declares.
 */
export function explicitNotModified(req: Request, res: Response, next: NextFunction): void {
  Object.defineProperty(req, 'fresh', { get: () => res.hasHeader('ETag') && (Reflect.get(Object.getPrototypeOf(req) as object, 'fresh', req) as boolean) });
  next();
}
