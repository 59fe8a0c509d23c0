export const CUSTOM_LINK_JOBS_QUEUE = 'custom-link-jobs';
export const CREATE_LINKS = 'create-links';
export const THUMBNAILS_QUEUE = 'thumbnails';
export const RENDER_THUMBNAIL = 'render-thumbnail';

export interface CreateLinksPayload {
  organizationId: string;
  jobId: string;
}

export interface RenderThumbnailPayload {
  organizationId: string;
  renderId: string;
}

/** Retries and cleanup in one place; a Bull job id equal to our id makes enqueueing idempotent. */
export const JOB_OPTIONS = { attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: 100 } as const;

export const LINK_OPENS_QUEUE = 'link-opens';
export const RECORD_OPEN = 'record-open';

/** An open seen at GET /l/{slug}, recorded off the request path. */
export interface RecordOpenPayload {
  organizationId: string;
  linkId: string;
  eventId: string;
  occurredAt: string;
  bot: boolean;
}
