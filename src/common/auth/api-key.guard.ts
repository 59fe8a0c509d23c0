import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UnauthenticatedError } from '../errors/domain-errors';
import { clientAddressOf } from '../http/client-address';
import { principalCacheLookups } from '../metrics/cache-metrics';
import { extractApiKey, hashApiKey } from './api-key';
import { AuthFailureLimit } from './auth-failure-limit';
import { PUBLIC_ROUTE, type AuthenticatedRequest } from './auth.decorators';
import { PrincipalLookup, type Principal } from './principal';
import { PrincipalCache } from './principal-cache';
import { PrincipalCacheFeed } from './principal-cache-feed';

/**
 * First global guard: every route is authenticated unless it is @Public(). Resolves the key to a
 * principal and attaches it to the request; 401 with the text of docs/api.md §5.5 otherwise, or 429
 * once the client address has failed too often (AuthFailureLimit).
 *
 * A key is looked up in the database only when the cache has no answer for it, known or unknown,
 * and the client address is not over its failure budget: a working key, a repeated wrong one and a
 * flood of random ones cost no query per request.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly lookup: PrincipalLookup,
    private readonly cache: PrincipalCache,
    private readonly feed: PrincipalCacheFeed,
    private readonly failures: AuthFailureLimit,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]))
      return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = extractApiKey(req.headers);
    const principal = key ? await this.resolve(hashApiKey(key), req) : null;
    if (!principal) {
      await this.failures.record(clientAddressOf(req));
      throw new UnauthenticatedError();
    }
    req.principal = principal;
    return true;
  }

  private async resolve(keyHash: string, req: AuthenticatedRequest): Promise<Principal | null> {
    let cached = this.cache.peek(keyHash);
    if (cached === undefined && !this.cache.isTrusted() && (await this.feed.renewLease()))
      cached = this.cache.peek(keyHash);
    if (cached !== undefined) {
      principalCacheLookups.hit();
      return cached;
    }
    await this.failures.refuseIfSpent(clientAddressOf(req));
    // A concurrent request may have looked the key up meanwhile.
    cached = this.cache.peek(keyHash);
    if (cached !== undefined) {
      principalCacheLookups.hit();
      return cached;
    }
    principalCacheLookups.miss();
    return this.cache.load(keyHash, (hash) => this.lookup.findActiveByHash(hash));
  }
}
