import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ConflictError } from '../errors/domain-errors';
import { idempotencyClaims, type IdempotencyClaim } from './idempotency-claim';
import { IdempotencyRepository } from './idempotency.repository';

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
