import type { Response } from 'supertest';

/** One entry of a 422's `detail` (FastAPI/pydantic shape). */
export interface ValidationEntry {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** The `detail` list of a 422 response. */
export const detailOf = (res: Response) => (res.body as { detail: ValidationEntry[] }).detail;

let seq = 0;
/** A label no other test run or test in this run uses (names, idempotency keys). */
export const unique = (label: string) => `${label} ${Date.now().toString(36)}-${++seq}`;
