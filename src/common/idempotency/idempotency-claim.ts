import { AsyncLocalStorage } from 'node:async_hooks';
import type { IdempotencyScope } from './idempotency.repository';

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
