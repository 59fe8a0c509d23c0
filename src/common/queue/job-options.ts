/**
 * Retries and cleanup of every Bull job, in one place. Callers add `jobId` (our own id), which makes
 * enqueueing idempotent: a second add of the same id is a no-op.
 */
export const JOB_OPTIONS = { attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true, removeOnFail: 100 } as const;
