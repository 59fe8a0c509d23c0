/** The events an endpoint may subscribe to (issue 20 point 1). */
export const WEBHOOK_EVENT_TYPES = [
  'custom_link.opened',
  'custom_link.session_started',
  'custom_link.engaged',
  'custom_link.lead',
  'custom_link.meeting_booked',
  'custom_link_job.finished',
  'agent_publish_job.finished',
  'session.analyzed',
  'person.erased',
  'custom_link.expired',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** An organization's endpoints at most (the 21st is refused). */
export const MAX_ENDPOINTS_PER_ORGANIZATION = 20;

/**
 * The events about one link (`custom_link.*`): the only ones an endpoint's filter applies to. The
 * others (jobs, publish jobs, sessions) reach every subscribed endpoint, filtered or not.
 */
export const LINK_SCOPED_EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES.filter((type) =>
  type.startsWith('custom_link.'),
);

/** Campaign ids, and link ids, an endpoint's filter names at most (each list). */
export const MAX_FILTER_IDS = 1000;
