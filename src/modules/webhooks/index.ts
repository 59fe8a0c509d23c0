export { WebhooksHttpModule } from './webhooks-http.module';
export { WebhooksWorkerModule } from './webhooks-worker.module';
export { WebhooksModule } from './webhooks.module';
export { WebhookOutbox } from './webhook-outbox.service';
export { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './webhook-event-types';
export { webhookDocumentation } from './webhook-events.openapi';
