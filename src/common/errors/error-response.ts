import type { Response } from 'express';
import { RequestValidationError } from './validation-issue';
import type { DomainError, ErrorKind } from './domain-errors';

/** The one place that turns what went wrong into an HTTP status. */
const HTTP_STATUS: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  invalid: 422,
  limit_exceeded: 429,
  unavailable: 503,
};

export function httpStatusOf(error: DomainError): number {
  return HTTP_STATUS[error.kind];
}

/** The response body of a DomainError: `{detail}` with its documented text (docs/api.md §7.1), or the 422 issue list. */
export function errorBody(error: DomainError): { detail: unknown } {
  return { detail: error instanceof RequestValidationError ? error.issues : error.detail };
}

export function sendDomainError(res: Response, error: DomainError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(httpStatusOf(error)).json(errorBody(error));
}
