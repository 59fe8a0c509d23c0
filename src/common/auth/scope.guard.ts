import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MissingScopeError } from '../errors/domain-errors';
import { PUBLIC_ROUTE, REQUIRED_SCOPES, type AuthenticatedRequest } from './auth.decorators';
import { grantsAny, type Scope } from './scopes';

/**
 * Last global guard: 403 unless the key holds a scope the route accepts. A route that declares
 * neither scopes nor @Public() is denied to every key (deny by default).
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const accepted = this.reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, targets) ?? [];
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    if (!principal || !grantsAny(principal.scopes, accepted)) throw new MissingScopeError();
    return true;
  }
}
