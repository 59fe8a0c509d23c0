import { RequestValidationError, valueError } from '../../common/errors/validation-issue';

/** An email a request gives, and where (the loc of its 422). */
export interface GivenEmail {
  loc: (string | number)[];
  email: string | null | undefined;
}

const REASON = 'this person asked to be erased';

/**
 * A request naming suppressed emails (docs/api.md §18.3): a 422 `value_error` at each one's loc.
 * Its answer echoes the emails, so it is never kept under an Idempotency-Key: the key is released
 * and a retry is judged afresh.
 */
export class SuppressedEmailError extends RequestValidationError {
  override readonly replayable = false;

  constructor(refused: readonly GivenEmail[]) {
    super(refused.map(({ loc, email }) => valueError(loc, email, REASON)));
  }
}
