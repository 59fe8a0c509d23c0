import type { components } from './schema';

type Schemas = components['schemas'];

/**
 * The schema `Name` of openapi.json once the document declares it (its OpenAPI 3.1 `webhooks` section,
 * issue 29 point 2), else `Declared`: the payload as the server builds it today (WebhookOutbox,
 * LinkWebhooks, JobSettlement, AgentService, IngestionService). When `npm run openapi` has generated
 * these schemas into schema.d.ts the document's win by themselves; the declarations below can then go.
 */
type FromDocument<Name extends string, Declared> = Name extends keyof Schemas ? Schemas[Name] : Declared;

/** Every message's envelope: the event type, when it was recorded (ISO 8601) and the resource. */
interface Envelope<Type extends string, Data> {
  type: Type;
  timestamp: string;
  data: Data;
}

/** A link event's data: the link as GET /api/v1/custom-links/{link_id} returns it after the event, and the event that caused it. */
type DeclaredLinkEventData = Schemas['CustomLinkResponse'] & { eventId: string; occurredAt: string };

export type CustomLinkOpenedWebhookEvent = FromDocument<'CustomLinkOpenedWebhookEvent', Envelope<'custom_link.opened', DeclaredLinkEventData>>;
export type CustomLinkSessionStartedWebhookEvent = FromDocument<'CustomLinkSessionStartedWebhookEvent', Envelope<'custom_link.session_started', DeclaredLinkEventData>>;
export type CustomLinkEngagedWebhookEvent = FromDocument<'CustomLinkEngagedWebhookEvent', Envelope<'custom_link.engaged', DeclaredLinkEventData>>;
export type CustomLinkLeadWebhookEvent = FromDocument<'CustomLinkLeadWebhookEvent', Envelope<'custom_link.lead', DeclaredLinkEventData>>;
export type CustomLinkMeetingBookedWebhookEvent = FromDocument<'CustomLinkMeetingBookedWebhookEvent', Envelope<'custom_link.meeting_booked', DeclaredLinkEventData>>;
/** data: the job as GET /api/v1/custom-link-jobs/{job_id} returns it once finished. */
export type CustomLinkJobFinishedWebhookEvent = FromDocument<'CustomLinkJobFinishedWebhookEvent', Envelope<'custom_link_job.finished', Schemas['JobResponse']>>;
/** data: the publish job as GET /api/v1/agent/publish-jobs/{job_id} returns it once finished. */
export type AgentPublishJobFinishedWebhookEvent = FromDocument<'AgentPublishJobFinishedWebhookEvent', Envelope<'agent_publish_job.finished', Schemas['PublishJobResponse']>>;
/** data: the session as GET /api/v1/sessions/{session_id} returns it. */
export type SessionAnalyzedWebhookEvent = FromDocument<'SessionAnalyzedWebhookEvent', Envelope<'session.analyzed', Schemas['SessionDetailResponse']>>;

/** Any message an endpoint receives; narrow it on `type`. */
export type WebhookEvent = FromDocument<
  'WebhookEvent',
  | CustomLinkOpenedWebhookEvent
  | CustomLinkSessionStartedWebhookEvent
  | CustomLinkEngagedWebhookEvent
  | CustomLinkLeadWebhookEvent
  | CustomLinkMeetingBookedWebhookEvent
  | CustomLinkJobFinishedWebhookEvent
  | AgentPublishJobFinishedWebhookEvent
  | SessionAnalyzedWebhookEvent
>;

/** The event types an endpoint may subscribe to (its `eventTypes`). */
export type WebhookEventType = WebhookEvent['type'];

/** The event of one type, e.g. `WebhookEventOf<'session.analyzed'>`. */
export type WebhookEventOf<Type extends WebhookEventType> = Extract<WebhookEvent, { type: Type }>;
