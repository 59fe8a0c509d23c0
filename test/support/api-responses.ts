import type { Response } from 'supertest';
import type { ValidationErrorAnswer } from './api-types';

/** The `detail` list of a 422 response. */
export const detailOf = (res: Response) => (res.body as ValidationErrorAnswer).detail;

let seq = 0;
/** A label no other test run or test in this run uses (names, idempotency keys). */
export const unique = (label: string) => `${label} ${Date.now().toString(36)}-${++seq}`;
