export const THUMBNAILS_QUEUE = 'thumbnails';
export const RENDER_THUMBNAIL = 'render-thumbnail';

export interface RenderThumbnailPayload {
  organizationId: string;
  renderId: string;
}
