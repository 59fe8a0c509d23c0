/**
 * The Idempotency-Key header and the mark of @Idempotent() routes. Here, below idempotency/, because
 * the request validator checks the header like any other input (a 422) and leaves those routes to
 * IdempotencyInterceptor, which validates them after the key.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENT = Symbol('idempotent');

export function isValidIdempotencyKey(value: string): boolean {
  return value.length >= 1 && value.length <= IDEMPOTENCY_KEY_MAX_LENGTH;
}

/** Whether the route handler is marked @Idempotent(). */
export function isIdempotentHandler(handler: object): boolean {
  return Reflect.getMetadata(IDEMPOTENT, handler) === true;
}
