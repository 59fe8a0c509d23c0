import { Transform } from 'class-transformer';

/**
 * Lax-mode coercions as pydantic applies them to query strings and JSON alike. A value that does
 * not coerce is left as it came, so the validator reports it with the input the client sent.
 */
const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

export function coerceInteger(value: unknown): unknown {
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number(value.trim());
  return value;
}

export function coerceBoolean(value: unknown): unknown {
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  if (value === 0 || value === 1) return value === 1;
  return value;
}

export const ToInteger = () => Transform(({ value }) => coerceInteger(value));
export const ToBoolean = () => Transform(({ value }) => coerceBoolean(value));
/** Trims strings (names are stored trimmed); other values pass through for the type check. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
