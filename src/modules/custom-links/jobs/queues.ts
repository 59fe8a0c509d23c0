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
