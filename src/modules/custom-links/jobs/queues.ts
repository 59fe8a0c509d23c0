export const CUSTOM_LINK_JOBS_QUEUE = 'custom-link-jobs';
export const CREATE_LINKS = 'create-links';

export interface CreateLinksPayload {
  organizationId: string;
  jobId: string;
}
