import { DomainError } from './domain-errors';

export type IssueLocation = 'path' | 'query' | 'header' | 'body';

/** One entry of the FastAPI / pydantic v2 422 body (docs/api.md §7.3). */
export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

export class RequestValidationError extends DomainError {
  readonly kind = 'invalid';

  constructor(readonly issues: ValidationIssue[]) {
    super('Request validation failed.');
  }
}

/** A rule broken by a value that no decorator describes: pydantic's `value_error`. */
export function valueError(loc: (string | number)[], input: unknown, reason: string): ValidationIssue {
  return { type: 'value_error', loc, msg: `Value error, ${reason}`, input, ctx: { error: reason } };
}
