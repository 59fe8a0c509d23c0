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
