import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { WebhookEvent } from './webhook-events';

export { WebhookVerificationError };

/** A request's headers as Node's `req.headers` (any case), a plain object, or a fetch `Headers`. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

/**
 * Checks a delivery the service signed (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) and returns its event. `payload` must be the raw body as received, not a
 * re-serialized parse of it; `secret` is the endpoint's `whsec_...` secret exactly as
 * POST /api/v1/webhook-endpoints (or rotate-secret) returned it. During a rotation's overlap each
 * message carries a signature for both secrets, so either one verifies.
 *
 * Throws WebhookVerificationError when a header is missing, the timestamp is more than 5 minutes
 * from this machine's clock, no signature matches, or the signed body is not an event.
 */
export function verifyWebhook(payload: string | Buffer, headers: WebhookHeaders, secret: string): WebhookEvent {
  const event = new Webhook(secret).verify(payload, signatureHeaders(headers));
  if (!isEvent(event))
    throw new WebhookVerificationError('The signed body is not a webhook event ({type, timestamp, data})');
  return event;
}

function signatureHeaders(headers: WebhookHeaders): Record<string, string> {
  const read = isFetchHeaders(headers) ? (name: string) => headers.get(name) ?? undefined : caseInsensitive(headers);
  const one = (name: string): string => {
    const value = read(name);
    if (Array.isArray(value)) {
      if (value.length !== 1) throw new WebhookVerificationError(`Expected one ${name} header, got ${value.length}`);
      return value[0];
    }
    return value ?? '';
  };
  // Several webhook-signature lines are several candidate signatures, like several space-separated ones.
  const signatures = read('webhook-signature');
  return {
    'webhook-id': one('webhook-id'),
    'webhook-timestamp': one('webhook-timestamp'),
    'webhook-signature': Array.isArray(signatures) ? signatures.join(' ') : (signatures ?? ''),
  };
}

function isFetchHeaders(headers: WebhookHeaders): headers is Headers {
  return typeof (headers as Headers).get === 'function' && typeof (headers as Headers).forEach === 'function';
}

function caseInsensitive(
  headers: Record<string, string | string[] | undefined>,
): (name: string) => string | string[] | undefined {
  const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return (name) => lower.get(name);
}

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { type, timestamp, data } = value as Record<string, unknown>;
  return typeof type === 'string' && typeof timestamp === 'string' && typeof data === 'object' && data !== null;
}
