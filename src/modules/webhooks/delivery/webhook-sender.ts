import http from 'node:http';
import https from 'node:https';
import type { WebhookAttemptOutcome } from '../../../common/metrics/work-metrics';
import { isPublicAddress } from '../../../common/network/address-policy';
import { pinnedLookup, unbracket } from '../../../common/network/pinned-lookup';
import { resolve } from '../endpoint-url';

/** A 2xx within this time is success (Standard Webhooks). */
export const DELIVERY_TIMEOUT_MS = 10_000;

export const WEBHOOK_USER_AGENT = 'engagement-webhooks/1.0';

export interface SendResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  /** Why it failed, in our words (never the receiver's text or an address). */
  error: string | null;
  /** What it came to, as the attempts metric counts it. */
  outcome: WebhookAttemptOutcome;
}

/**
 * POSTs one signed message. Unless private addresses are allowed, the host is resolved once, every
 * address must be public, and the socket is pinned to them (no DNS rebinding between check and connect).
 * Redirects are not followed: a 3xx is a failure.
 */
export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  allowPrivate: boolean,
): Promise<SendResult> {
  const started = Date.now();
  const done = (
    status: number | null,
    error: string | null,
    failure: Exclude<WebhookAttemptOutcome, 'success'> = 'unreachable',
  ): SendResult => ({
    ok: error === null,
    status,
    durationMs: Date.now() - started,
    error,
    outcome: error === null ? 'success' : failure,
  });
  const target = new URL(url);
  let lookup: ReturnType<typeof pinnedLookup> | undefined;
  if (!allowPrivate) {
    const addresses = await resolve(unbracket(target.hostname));
    if (addresses.length === 0) return done(null, 'the endpoint host could not be resolved');
    if (!addresses.every(isPublicAddress)) return done(null, 'the endpoint host is not a public address');
    lookup = pinnedLookup(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  }
  return new Promise<SendResult>((settle) => {
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        agent: false,
        lookup,
        timeout: DELIVERY_TIMEOUT_MS,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': WEBHOOK_USER_AGENT,
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // The receiver's body is not kept; reading it lets the socket close.
        response.resume();
        response.on('end', () =>
          settle(
            done(status, status >= 200 && status <= 299 ? null : `the endpoint answered HTTP ${status}`, 'http_error'),
          ),
        );
        response.on('error', () => settle(done(status, 'the response was cut off', 'http_error')));
      },
    );
    const deadline = setTimeout(() => request.destroy(new Error('timeout')), DELIVERY_TIMEOUT_MS);
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (err) =>
      settle(
        err.message === 'timeout'
          ? done(null, `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`, 'timeout')
          : done(null, 'the endpoint could not be reached'),
      ),
    );
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
