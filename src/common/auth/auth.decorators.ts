import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from './principal';
import type { Scope } from './scopes';

export const REQUIRED_SCOPES = 'auth:requiredScopes';
export const PUBLIC_ROUTE = 'auth:public';

/** The route needs a key holding one of these scopes. Every route declares this or @Public(). */
export const RequireScope = (...anyOf: [Scope, ...Scope[]]) => SetMetadata(REQUIRED_SCOPES, anyOf);

/** The route needs no key (health, metrics, public link and image routes). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** `rateLimitKey`: the request-rate window this request was charged to (a 304 gives it back). */
export type AuthenticatedRequest = Request & { principal?: Principal; rateLimitKey?: string };

/** The authenticated caller; only on routes that require a scope. */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('Caller used on a route without authentication');
  return principal;
});
