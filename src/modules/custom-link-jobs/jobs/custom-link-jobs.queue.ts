/** One queue for every kind of job; the Bull job name predates the handlers and stays for queued jobs. */
export const JOBS_QUEUE = 'custom-link-jobs';
export const RUN_JOB = 'create-links';

export interface RunJobPayload {
  organizationId: string;
  jobId: string;
}
