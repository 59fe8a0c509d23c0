import type { Response } from 'express';
import { RequestValidationError } from '../validation/validation-issue';
import type { ApiError } from './api-errors';

/** The response body of an ApiError: `{detail}` with its documented text (docs/api.md §7.1), or the 422 issue list. */
export function errorBody(error: ApiError): { detail: unknown } {
  return { detail: error instanceof RequestValidationError ? error.issues : error.detail };
}

export function sendApiError(res: Response, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).json(errorBody(error));
}
