export const AGENT_PUBLISH_QUEUE = 'agent-publish';
export const PUBLISH_VERSION = 'publish-version';

export interface PublishPayload {
  organizationId: string;
  jobId: string;
}
