import type { HeaderObject } from '@nestjs/swagger';

/** The response headers clients rely on (docs/api.md §7, §8, §10), declared once here. */
export const RESPONSE_HEADERS = {
  'X-Request-ID': {
    description:
      'The request id: the incoming X-Request-ID when it is 1..128 visible ASCII characters, else a new UUID. On every response.',
    schema: { type: 'string', minLength: 1, maxLength: 128 },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window (the request rate of the key, or on a 429 the limit that refused it).',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': {
    description: 'Unix time (seconds) at which the window resets.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again (or before the next poll of a job).',
    schema: { type: 'integer', minimum: 0 },
  },
  Location: {
    description: 'The URL of the resource this request created or started.',
    schema: { type: 'string', format: 'uri-reference' },
  },
  ETag: {
    description: 'The version of this representation; send it back as If-None-Match.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this is the stored response of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
} satisfies Record<string, HeaderObject>;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

/**
 * A response's `headers` map: the required ones always sent, the optional ones sometimes;
 * `described` words a header for this response (what its Location names).
 */
export function responseHeaders(
  required: ResponseHeaderName[],
  optional: ResponseHeaderName[] = [],
  described: Partial<Record<ResponseHeaderName, string>> = {},
): Record<string, HeaderObject> {
  const headers: Record<string, HeaderObject> = {};
  const header = (name: ResponseHeaderName) => ({
    ...RESPONSE_HEADERS[name],
    ...(described[name] ? { description: described[name] } : {}),
  });
  for (const name of required) headers[name] = { ...header(name), required: true };
  for (const name of optional) headers[name] = { ...header(name), required: false };
  return headers;
}
