import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MissingScopeError } from '../errors/domain-errors';
import { ANY_KEY, PUBLIC_ROUTE, REQUIRED_SCOPES, type AuthenticatedRequest } from './auth.decorators';
import { grantsAny, type Scope } from './scopes';

/**
 * Last global guard: 403 unless the key holds a scope the route accepts, or the route takes any
 * key (@AnyKey()). A route that declares none of scopes, @AnyKey() or @Public() is denied to every
 * key (deny by default).
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const accepted = this.reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, targets) ?? [];
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (principal && this.reflector.getAllAndOverride<boolean>(ANY_KEY, targets)) return true;
    if (!principal || !grantsAny(principal.scopes, accepted)) throw new MissingScopeError();
    return true;
  }
}
