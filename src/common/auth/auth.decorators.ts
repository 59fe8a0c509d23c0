import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Principal } from './principal';
import type { Scope } from './scopes';

export const REQUIRED_SCOPES = 'auth:requiredScopes';
export const PUBLIC_ROUTE = 'auth:public';
export const ANY_KEY = 'auth:anyKey';

/** The route needs a key holding one of these scopes. Every route declares this or @Public(). */
export const RequireScope = (...anyOf: [Scope, ...Scope[]]) => SetMetadata(REQUIRED_SCOPES, anyOf);

/** The route needs a valid key, whatever its scopes (GET /api/v1/usage: every key has limits to read). */
export const AnyKey = () => SetMetadata(ANY_KEY, true);

/**
 * The route needs no key (health, metrics, public link and image routes). Its OpenAPI operations say
 * so with an empty security list, overriding the document's requirements.
 */
export const Public = () => applyDecorators(SetMetadata(PUBLIC_ROUTE, true), ApiNoSecurity());

/**
 * `security: []` on a controller's or a handler's operations. @nestjs/swagger has no decorator for it:
 * ApiSecurity only appends requirements, and the explorer drops an empty list given on a method. A
 * controller's empty list is copied to each of its operations as it is; a handler's goes into its
 * operation metadata, which is spread onto the operation. Contract: framework-contracts.spec.ts.
 */
function ApiNoSecurity(): ClassDecorator & MethodDecorator {
  return ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (!descriptor) return Reflect.defineMetadata(DECORATORS.API_SECURITY, [], target);
    const operation: object | undefined = Reflect.getMetadata(DECORATORS.API_OPERATION, descriptor.value as object);
    Reflect.defineMetadata(DECORATORS.API_OPERATION, { ...operation, security: [] }, descriptor.value as object);
  }) as ClassDecorator & MethodDecorator;
}

/** `principal`: set by ApiKeyGuard on every route that is not @Public(). */
export type AuthenticatedRequest = Request & { principal?: Principal };

/** The authenticated caller; only on routes that require a scope. */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('Caller used on a route without authentication');
  return principal;
});
