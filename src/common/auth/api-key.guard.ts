import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppConfigService } from '../../config/app-config';
import { UnauthenticatedError } from '../errors/domain-errors';
import { extractApiKey, hashApiKey } from './api-key';
import { PUBLIC_ROUTE, type AuthenticatedRequest } from './auth.decorators';
import { PrincipalLookup } from './principal';
import { PrincipalCache } from './principal-cache';

/**
 * First global guard: every route is authenticated unless it is @Public(). Resolves the key to a
 * principal (cached) and attaches it to the request; 401 with the text of docs/api.md §5.5 otherwise.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly cache: PrincipalCache;

  constructor(
    private readonly reflector: Reflector,
    private readonly lookup: PrincipalLookup,
    config: AppConfigService,
  ) {
    this.cache = new PrincipalCache(config.values.apiKeyCacheTtlSeconds * 1000);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = extractApiKey(req.headers);
    if (!key) throw new UnauthenticatedError();
    const principal = await this.cache.get(hashApiKey(key), (hash) => this.lookup.findActiveByHash(hash));
    if (!principal) throw new UnauthenticatedError();
    req.principal = principal;
    return true;
  }
}
