/**
 * Errors a service may throw: each says what went wrong (its kind) with the documented detail text
 * (docs/api.md §7.1); the exception filter maps the kind to an HTTP status (error-response.ts).
 * `headers` carry what a client needs to retry (Retry-After, limit figures).
 */
export type ErrorKind =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'gone'
  | 'conflict'
  | 'too_large'
  | 'invalid'
  | 'limit_exceeded'
  | 'unavailable';

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  readonly headers: Record<string, string> = {};
  /**
   * Whether its answer may be kept under the request's Idempotency-Key and replayed (docs/api.md
   * §10.3). Not when the answer echoes what the service must not keep (§18.3): the key is
   * released instead.
   */
  readonly replayable: boolean = true;

  constructor(readonly detail: string) {
    super(detail);
  }
}

export class NotFoundError extends DomainError {
  readonly kind = 'not_found';

  /** The usual text: "<resource> not found for the key's organization." */
  static inOrganization(resource: string): NotFoundError {
    return new NotFoundError(`${resource} not found for the key's organization.`);
  }
}

export class GoneError extends DomainError {
  readonly kind = 'gone';
}

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';

  constructor() {
    super('API key required or invalid.');
  }
}

export class MissingScopeError extends DomainError {
  readonly kind = 'forbidden';

  constructor() {
    super('API key does not include the required scope.');
  }
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict';

  constructor() {
    super('The operation conflicts with current state or idempotency history.');
  }
}

export class IdempotencyKeyRequiredError extends DomainError {
  readonly kind = 'bad_request';

  constructor() {
    super('The operation requires an Idempotency-Key header.');
  }
}

/** The figures of the limit that refused a request (docs/api.md §8.5). */
export interface LimitState {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  resetAt: number;
  /** Whole seconds until the window resets (Retry-After), at least 1. */
  retryAfterSeconds: number;
}

export class LimitExceededError extends DomainError {
  readonly kind = 'limit_exceeded';

  constructor(state: LimitState) {
    super('Rate limit or organization quota exceeded.');
    Object.assign(this.headers, rateLimitHeaders(state), { 'Retry-After': String(state.retryAfterSeconds) });
  }
}

/** A workflow switched off, or a dependency (PostgreSQL, Redis) down or too slow: retry after a while. */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable';

  constructor(retryAfterSeconds = 60) {
    super('The workflow is disabled or temporarily unavailable.');
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly kind = 'too_large';

  constructor() {
    super('Request body too large.');
  }
}

export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(Math.max(0, state.remaining)),
    'X-RateLimit-Reset': String(state.resetAt),
  };
}
