import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';
import { ConflictError } from '../errors/domain-errors';
import { IdempotencyRepository, type IdempotencyScope } from './idempotency.repository';

/** The Idempotency-Key lease the current request holds, and the status its success answers with. */
export interface IdempotencyClaim {
  scope: IdempotencyScope;
  token: string;
  successStatus: number;
}

/**
 * Set by IdempotencyInterceptor around the route handler of a request that claimed a key, so the
 * service's transaction can store the answer with the mutation (IdempotencyRecorder) without every
 * controller and service passing the claim along.
 */
export const idempotencyClaims = new AsyncLocalStorage<IdempotencyClaim>();

/**
 * Commits a mutation and its Idempotency-Key answer together (docs/api.md §10.3): the service calls
 * `complete(tx, body)` inside the transaction that makes its change, with the answer it is about to
 * give. The record is then `committed`: retries get 409 while the request still runs, the interceptor
 * stores the answer actually sent when it finishes, and if anything fails after the commit (or the
 * process dies) the key is not released: retries replay this answer instead of running the mutation
 * again. When the request's lease was taken over meanwhile, the write finds no claim of its own and
 * throws a 409, which rolls the mutation back, so of two requests that both believed they held the
 * key only one can commit.
 *
 * A no-op outside a request that holds a key (no header, another route, the workers). Call it once,
 * in the transaction of the route's own mutation.
 */
@Injectable()
export class IdempotencyRecorder {
  constructor(private readonly records: IdempotencyRepository) {}

  complete(tx: EntityManager, body: unknown, headers: Record<string, string> = {}): Promise<void> {
    return this.completeClaim(tx, idempotencyClaims.getStore(), body, headers);
  }

  /**
   * complete() for a request's claim read earlier from idempotencyClaims, by a service that commits
   * it from another context (a group of requests committed together); a no-op without one.
   */
  async completeClaim(
    tx: EntityManager,
    claim: IdempotencyClaim | undefined,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<void> {
    if (!claim) return;
    const response = { status: claim.successStatus, body, headers };
    if (!(await this.records.commit(tx, claim.scope, claim.token, response))) throw new ConflictError();
  }
}
