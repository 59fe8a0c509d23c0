/**
 * Errors a service may throw. Each knows its HTTP status and detail text (docs/api.md §7.1); the global
 * exception filter renders them. Nothing below the controller layer imports HTTP types.
 */
export abstract class ApiError extends Error {
  abstract readonly status: number;
  readonly headers: Record<string, string> = {};

  protected constructor(readonly detail: string) {
    super(detail);
  }
}

export const NOT_FOUND_DETAILS = {
  session: 'Session not found, outside the organization, or not yet analyzed.',
  transcript: 'Transcript not found or outside the organization.',
  account: "Account not found for the key's organization.",
  person: "Person not found for the key's organization.",
  customLink: "Custom Link not found for the key's organization.",
  campaign: "Custom Link campaign not found for the key's organization.",
  customLinkJob: "Custom Link job not found for the key's organization.",
  suggestionGroup: "Suggestion group not found for the key's organization.",
  publishJob: "Publish job not found for the key's organization.",
} as const;

export type NotFoundResource = keyof typeof NOT_FOUND_DETAILS;

export class ResourceNotFoundError extends ApiError {
  readonly status = 404;

  constructor(resource: NotFoundResource) {
    super(NOT_FOUND_DETAILS[resource]);
  }
}

export class UnauthenticatedError extends ApiError {
  readonly status = 401;

  constructor() {
    super('API key required or invalid.');
  }
}

export class MissingScopeError extends ApiError {
  readonly status = 403;

  constructor() {
    super('API key does not include the required scope.');
  }
}

export class ConflictError extends ApiError {
  readonly status = 409;

  constructor() {
    super('The operation conflicts with current state or idempotency history.');
  }
}

export class IdempotencyKeyRequiredError extends ApiError {
  readonly status = 400;

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

export class LimitExceededError extends ApiError {
  readonly status = 429;

  constructor(state: LimitState) {
    super('Rate limit or organization quota exceeded.');
    Object.assign(this.headers, rateLimitHeaders(state), { 'Retry-After': String(state.retryAfterSeconds) });
  }
}

export class WorkflowUnavailableError extends ApiError {
  readonly status = 503;

  constructor(retryAfterSeconds = 60) {
    super('The workflow is disabled or temporarily unavailable.');
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

export class PayloadTooLargeError extends ApiError {
  readonly status = 413;

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
