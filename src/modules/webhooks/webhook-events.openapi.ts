import type { ParameterObject, PathItemObject, SchemaObject } from '@nestjs/swagger';
import { DELIVERY_TIMEOUT_MS } from './delivery/webhook-sender';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-event-types';

/** The messages this service sends, as OpenAPI 3.1 `webhooks` and the component schemas they use. */
export interface WebhookDocumentation {
  webhooks: Record<string, PathItemObject>;
  schemas: Record<string, SchemaObject>;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** What each event's `data` is (webhook-outbox.service.ts): the resource as its GET returns it. */
const EVENT_DATA: Record<WebhookEventType, { schema: string; when: string }> = {
  'custom_link.opened': {
    schema: 'CustomLinkWebhookData',
    when: 'A human (not a bot) opened a Custom Link: one message per accepted open event.',
  },
  'custom_link.session_started': {
    schema: 'CustomLinkWebhookData',
    when: "A link's engagement first reached the started stage.",
  },
  'custom_link.engaged': {
    schema: 'CustomLinkWebhookData',
    when: "A link's engagement first reached the engaged stage.",
  },
  'custom_link.lead': { schema: 'CustomLinkWebhookData', when: 'A lead was first submitted through a link.' },
  'custom_link.meeting_booked': { schema: 'CustomLinkWebhookData', when: 'A meeting was first booked through a link.' },
  'custom_link_job.finished': {
    schema: 'JobResponse',
    when: 'A Custom Link job reached a final status (completed, completed_with_errors, cancelled or failed).',
  },
  'agent_publish_job.finished': { schema: 'PublishJobResponse', when: 'An agent publish job succeeded or failed.' },
  'session.analyzed': {
    schema: 'SessionDetailResponse',
    when: 'A session was ingested as analyzed (created, or changed to analyzed).',
  },
  'custom_link.expired': {
    schema: 'CustomLinkExpiredWebhookData',
    when: 'A Custom Link became expired (its expiresAt passed: announced within a minute) or capped (an open took its last human open). Once per such change: a link reopened by an edit is announced again when it closes again.',
  },
  'person.erased': {
    schema: 'PersonErasedWebhookData',
    when: 'An erasure completed (docs/api.md §18.1): erase your copy of the person. No personal data is in the message.',
  },
};

const SIGNATURE_HEADERS: ParameterObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The message id: the same on every attempt of a message (deduplicate on it).',
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix time (seconds) of this attempt; refuse a message far from your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks signatures, space-separated: `v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the base64-decoded part of the endpoint secret after `whsec_`; one per active secret (two while a rotated secret is still valid).',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
];

/** `custom_link.opened` → `CustomLinkOpenedWebhookEvent` */
export function webhookEventSchemaName(type: WebhookEventType): string {
  const words = type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return `${words.join('')}WebhookEvent`;
}

export function webhookDocumentation(): WebhookDocumentation {
  const schemas: Record<string, SchemaObject> = {
    CustomLinkWebhookData: {
      description:
        'The link as GET /api/v1/custom-links/{link_id} returns it after the event, with the event that caused the message.',
      allOf: [
        ref('CustomLinkResponse'),
        {
          type: 'object',
          required: ['eventId', 'occurredAt'],
          properties: {
            eventId: {
              type: 'string',
              description: 'The eventId of the triggering event (the first event to reach the milestone).',
            },
            occurredAt: { type: 'string', format: 'date-time', description: 'When the triggering event occurred.' },
          },
        },
      ],
    },
    CustomLinkExpiredWebhookData: {
      description: 'The link as GET /api/v1/custom-links/{link_id} returns it when it closed, with why and when.',
      allOf: [
        ref('CustomLinkResponse'),
        {
          type: 'object',
          required: ['reason', 'closedAt'],
          properties: {
            reason: { type: 'string', enum: ['expired', 'capped'], description: 'Its accessState then.' },
            closedAt: { type: 'string', format: 'date-time', description: 'When the service saw it close.' },
          },
        },
      ],
    },
    PersonErasedWebhookData: {
      type: 'object',
      description: 'The erasure that completed, and what it erased per kind: ids and counts, no personal data.',
      required: ['erasureId', 'personId', 'counts'],
      additionalProperties: false,
      properties: {
        erasureId: { type: 'string', format: 'uuid', description: 'GET /api/v1/privacy/erasures/{erasure_id}' },
        personId: {
          type: ['string', 'null'],
          format: 'uuid',
          description: 'The person the erasure deleted, or null when the organization held none for it.',
        },
        counts: ref('ErasureCounts'),
      },
    },
  };
  const webhooks: Record<string, PathItemObject> = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    const name = webhookEventSchemaName(type);
    const { schema, when } = EVENT_DATA[type];
    schemas[name] = {
      type: 'object',
      description: when,
      required: ['type', 'timestamp', 'data'],
      additionalProperties: false,
      properties: {
        type: { type: 'string', enum: [type] },
        timestamp: {
          type: 'string',
          format: 'date-time',
          description: 'When the message was recorded (in the transaction of the change).',
        },
        data: ref(schema),
      },
    };
    webhooks[type] = {
      post: {
        operationId: `webhook_${type.replace(/\./g, '_')}`,
        summary: type,
        description: `${when} Sent as a POST to every active endpoint subscribed to \`${type}\`.`,
        tags: ['webhooks'],
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: { required: true, content: { 'application/json': { schema: ref(name) } } },
        responses: {
          '2XX': {
            description: `Received. Any other answer, or none within ${DELIVERY_TIMEOUT_MS / 1000} s, is retried on the schedule of docs/api.md §6.`,
          },
        },
      },
    };
  }
  return { webhooks, schemas };
}
