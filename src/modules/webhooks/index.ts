export { WebhooksHttpModule, WebhooksWorkerModule, WebhooksModule } from './webhooks.module';
export { WebhookOutbox } from './webhook-outbox.service';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-event-types';
export { webhookDocumentation } from './webhook-events.openapi';
export { WebhookErasure } from './webhook-erasure';
export { WebhookHistory, MESSAGE_LIFETIME_MS } from './webhook-history';
