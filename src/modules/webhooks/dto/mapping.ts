import { isoOrNull } from '../../../common/validation/timestamps';
import type { DeliveryRow, EndpointRow } from '../webhooks.repository';
import type { WebhookDeliveryResponse } from './webhook-delivery.response';
import type { WebhookEndpointResponse, WebhookEndpointWithSecretResponse } from './webhook-endpoint.response';

export function toEndpointResponse(row: EndpointRow): WebhookEndpointResponse {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.event_types,
    description: row.description,
    active: row.active,
    // Stored canonical, deduplicated and sorted (rules/endpoint-filter.ts); both null without a filter.
    filter:
      row.filter_link_ids === null || row.filter_campaign_ids === null
        ? null
        : { campaignIds: row.filter_campaign_ids, linkIds: row.filter_link_ids },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function withSecret(row: EndpointRow): WebhookEndpointWithSecretResponse {
  return { ...toEndpointResponse(row), secret: row.secret };
}

export function toDeliveryResponse(row: DeliveryRow): WebhookDeliveryResponse {
  return {
    id: row.id,
    messageId: row.message_id,
    eventType: row.event_type,
    attempt: row.attempt,
    status: row.status,
    responseStatus: row.response_status,
    durationMs: row.duration_ms,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    nextAttemptAt: isoOrNull(row.next_attempt_at),
  };
}
