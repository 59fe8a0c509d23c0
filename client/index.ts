import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type { $defs, components, operations, paths, webhooks } from './schema';
export type {
  AgentPublishJobFinishedWebhookEvent,
  CustomLinkEngagedWebhookEvent,
  CustomLinkExpiredWebhookEvent,
  CustomLinkJobFinishedWebhookEvent,
  CustomLinkLeadWebhookEvent,
  CustomLinkMeetingBookedWebhookEvent,
  CustomLinkOpenedWebhookEvent,
  CustomLinkSessionStartedWebhookEvent,
  PersonErasedWebhookEvent,
  SessionAnalyzedWebhookEvent,
  WebhookEvent,
  WebhookEventOf,
  WebhookEventType,
} from './webhook-events';
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from './verify-webhook';

/**
 * The typed client: `createApiClient(baseUrl, apiKey)` answers what `createClient<paths>` of
 * openapi-fetch answers, with `data` typed as the JSON answer. An answer in another media type (an
 * export's file, analytics with format=csv) is read with `parseAs: 'text'` or `'stream'`.
 */
export type ApiClient = Client<paths, 'application/json'>;

/**
 * A typed client of the API, from openapi.json (`npm run openapi` regenerates schema.d.ts with
 * openapi-typescript): paths, parameters, bodies and answers are checked by the compiler.
 */
export function createApiClient(baseUrl: string, apiKey: string, fetchImpl: typeof fetch = fetch): ApiClient {
  return createClient<paths, 'application/json'>({
    baseUrl,
    headers: { Authorization: `Bearer ${apiKey}` },
    fetch: fetchImpl,
  });
}
