import type { components } from './schema';

type Schemas = components['schemas'];

/** Each message an endpoint receives, as openapi.json's `webhooks` section declares it (docs/api.md §6). */
export type CustomLinkOpenedWebhookEvent = Schemas['CustomLinkOpenedWebhookEvent'];
export type CustomLinkSessionStartedWebhookEvent = Schemas['CustomLinkSessionStartedWebhookEvent'];
export type CustomLinkEngagedWebhookEvent = Schemas['CustomLinkEngagedWebhookEvent'];
export type CustomLinkLeadWebhookEvent = Schemas['CustomLinkLeadWebhookEvent'];
export type CustomLinkMeetingBookedWebhookEvent = Schemas['CustomLinkMeetingBookedWebhookEvent'];
export type CustomLinkJobFinishedWebhookEvent = Schemas['CustomLinkJobFinishedWebhookEvent'];
export type AgentPublishJobFinishedWebhookEvent = Schemas['AgentPublishJobFinishedWebhookEvent'];
export type SessionAnalyzedWebhookEvent = Schemas['SessionAnalyzedWebhookEvent'];
export type CustomLinkExpiredWebhookEvent = Schemas['CustomLinkExpiredWebhookEvent'];
export type PersonErasedWebhookEvent = Schemas['PersonErasedWebhookEvent'];

/** Any message an endpoint receives; narrow it on `type`. */
export type WebhookEvent =
  | CustomLinkOpenedWebhookEvent
  | CustomLinkSessionStartedWebhookEvent
  | CustomLinkEngagedWebhookEvent
  | CustomLinkLeadWebhookEvent
  | CustomLinkMeetingBookedWebhookEvent
  | CustomLinkJobFinishedWebhookEvent
  | AgentPublishJobFinishedWebhookEvent
  | SessionAnalyzedWebhookEvent
  | CustomLinkExpiredWebhookEvent
  | PersonErasedWebhookEvent;

/** The event types an endpoint may subscribe to (its `eventTypes`). */
export type WebhookEventType = WebhookEvent['type'];

/** The event of one type, e.g. `WebhookEventOf<'session.analyzed'>`. */
export type WebhookEventOf<Type extends WebhookEventType> = Extract<WebhookEvent, { type: Type }>;
